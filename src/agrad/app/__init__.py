"""The application layer: one CLI run, from options to a contained child process."""
