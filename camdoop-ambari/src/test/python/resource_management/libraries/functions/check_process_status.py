import os

from resource_management.core.exceptions import ComponentIsNotRunning


def check_process_status(pid_file):
    """Raises ComponentIsNotRunning unless pid_file names a live process."""
    if not pid_file or not os.path.isfile(pid_file):
        raise ComponentIsNotRunning('no pid file %s' % pid_file)
    with open(pid_file) as f:
        text = f.read().strip()
    try:
        os.kill(int(text), 0)
    except (ValueError, OSError):
        raise ComponentIsNotRunning('process %s of %s is not running' % (text, pid_file))
