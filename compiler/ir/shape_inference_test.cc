// Scaffold: tests are written with the implementation.
