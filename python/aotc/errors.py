"""The exceptions of the aotc package.

Every error the package raises on purpose derives from AotcError. Wrong
arguments to a loaded model raise the built-in TypeError (arity, element type)
and ValueError (shape), as numpy and Python do.
"""


class AotcError(Exception):
    """An aotc tool could not be found or run, or a model could not be used."""


class CompileError(AotcError):
    """`aotc compile` refused the model.

    str(error) is aotc's own message (located: file:line:col: error: ...); the
    attributes keep the command, its exit code and both output streams.
    """

    def __init__(self, message, command, returncode, stdout, stderr):
        super().__init__(message)
        self.command = command
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


class LoadError(AotcError):
    """A compiled model could not be linked or loaded into this process."""


class RunError(AotcError):
    """A loaded model returned a nonzero aotc_status (docs/runtime.md)."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status
