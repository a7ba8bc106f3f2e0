import json
import sys
import traceback

from resource_management.core.exceptions import ComponentIsNotRunning


class Environment(object):
    def set_params(self, params):
        self.params = params


class Script(object):
    """As Ambari's agent runs a command script: SCRIPT COMMAND COMMAND_JSON BASEDIR STRUCTURED_OUT LOG_LEVEL TMP_DIR.
    The command's JSON (its 'configurations' above all) is what get_config() returns."""
    config = None

    @staticmethod
    def get_config():
        return Script.config

    def execute(self):
        command = sys.argv[1].lower()
        with open(sys.argv[2]) as f:
            Script.config = json.load(f)
        try:
            getattr(self, command)(Environment())
        except ComponentIsNotRunning as e:
            print('ComponentIsNotRunning: %s' % e)
            sys.exit(1)
        except Exception:
            traceback.print_exc()
            sys.exit(1)
