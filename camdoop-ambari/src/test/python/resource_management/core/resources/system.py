import getpass
import os
import pwd
import subprocess

from resource_management.core.exceptions import Fail


def _chown(path, owner):
    if owner and owner != getpass.getuser():
        entry = pwd.getpwnam(owner)
        os.chown(path, entry.pw_uid, entry.pw_gid)


def Execute(command, environment=None, user=None, logoutput=True):
    """Runs command (a tuple: no shell; a string: through bash) as user, with environment added; Fail on non-zero."""
    env = dict(os.environ)
    env.update(environment or {})
    argv = list(command) if isinstance(command, (tuple, list)) else ['bash', '-c', command]
    if user and user != getpass.getuser():
        argv = ['su', '-s', '/bin/bash', user, '-c', ' '.join("'%s'" % a.replace("'", "'\\''") for a in argv)]
    print('Execute %s' % ' '.join(argv))
    result = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if logoutput and result.stdout:
        print(result.stdout, end='')
    if result.returncode != 0:
        raise Fail("Execution of '%s' returned %d. %s" % (' '.join(argv), result.returncode, result.stdout))


def Directory(path, create_parents=False, owner=None, mode=None):
    if create_parents:
        os.makedirs(path, exist_ok=True)
    elif not os.path.isdir(path):
        os.mkdir(path)
    if mode is not None:
        os.chmod(path, mode)
    _chown(path, owner)


def File(path, content='', owner=None, mode=None):
    with open(path, 'w') as f:
        f.write(content)
    if mode is not None:
        os.chmod(path, mode)
    _chown(path, owner)
