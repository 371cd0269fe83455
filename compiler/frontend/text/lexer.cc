// Scaffold: implemented with the parser.
