#!/usr/bin/env python
"""Ambari script alert: this host's Camdoop daemon answers on its status port and all its links to other daemons are
up and in use. CRITICAL when it does not answer; WARNING when a link is down (traffic is re-routed around it), or up
again but still routed around (it stays unused until a new run of either end's daemon connects); OK otherwise."""
import json

try:
    from urllib.request import urlopen
except ImportError:  # Python 2 (Ambari 2.7)
    from urllib2 import urlopen

HTTP_PORT_KEY = '{{camdoop-site/camdoop.daemon.http.port}}'
TOPOLOGY_KEY = '{{camdoop-topology/content}}'


def get_tokens():
    return (HTTP_PORT_KEY, TOPOLOGY_KEY)


def execute(configurations={}, parameters={}, host_name=None):
    port = int(configurations.get(HTTP_PORT_KEY) or 7711)
    peers = set()
    for line in (configurations.get(TOPOLOGY_KEY) or '').splitlines():
        line = line.split('#', 1)[0].strip()
        if line and not line.startswith('shape'):
            peers.add(line.split()[0])
    try:
        status = json.loads(urlopen('http://%s:%d/status.json' % (host_name or 'localhost', port), timeout=5)
                            .read().decode('utf-8'))
    except Exception as e:
        return ('CRITICAL', ['Camdoop daemon on %s:%d does not answer: %s' % (host_name, port, e)])
    down = [l['port'] + ' to ' + l['peer'] for l in status['links'] if l['peer'] in peers and not l['up']]
    if down:
        return ('WARNING', ['Camdoop daemon %s: links down: %s' % (status['coord'], ', '.join(down))])
    routed = [l['port'] + ' to ' + l['peer'] for l in status['links'] if l['peer'] in peers and l.get('routed_around')]
    if routed:
        return ('WARNING', ['Camdoop daemon %s: links up but routed around, unused until a daemon at either end restarts: %s'
                            % (status['coord'], ', '.join(routed))])
    return ('OK', ['Camdoop daemon %s: %d links up, %d shuffles running'
                   % (status['coord'], status['links_up'], status['shuffles_running'])])
