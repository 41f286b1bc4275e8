"""Testing helpers: the pytest plugin, in-process transports and a threaded live server."""
