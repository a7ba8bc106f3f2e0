class Fail(Exception):
    """A command or resource failed (Ambari reports the command as failed)."""


class ComponentIsNotRunning(Exception):
    """Raised by a status command: the component is not running (Ambari shows it stopped)."""
