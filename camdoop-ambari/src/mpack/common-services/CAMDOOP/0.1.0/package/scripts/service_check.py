#!/usr/bin/env python
"""Service check: every daemon of the topology answers on its status port and every link between two of them is up,
as the distribution's 'camdoop status' reports it (here without the command-line tool: one request per daemon)."""
import json

from resource_management.core.exceptions import Fail
from resource_management.libraries.script.script import Script

try:
    from urllib.request import urlopen
except ImportError:  # Python 2 (Ambari 2.7)
    from urllib2 import urlopen


def topology_hosts(content):
    hosts = {}
    for line in content.splitlines():
        line = line.split('#', 1)[0].strip()
        if not line or line.startswith('shape'):
            continue
        coord, address = line.split()
        hosts[coord] = address.rsplit(':', 1)[0]
    return hosts


class CamdoopServiceCheck(Script):

    def service_check(self, env):
        import params
        env.set_params(params)
        hosts = topology_hosts(params.topology_content)
        problems = []
        for coord, host in sorted(hosts.items()):
            try:
                status = json.loads(urlopen('http://%s:%d/status.json' % (host, params.http_port), timeout=5)
                                    .read().decode('utf-8'))
            except Exception as e:
                problems.append('%s (%s) does not answer: %s' % (coord, host, e))
                continue
            for link in status['links']:
                if link['peer'] in hosts and not link['up']:
                    problems.append('%s: link %s to %s is down' % (coord, link['port'], link['peer']))
        if problems:
            raise Fail('Camdoop is not healthy: ' + '; '.join(problems))
        print('Camdoop: %d daemons answer, every link between them is up' % len(hosts))


if __name__ == '__main__':
    CamdoopServiceCheck().execute()
