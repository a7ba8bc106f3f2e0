#!/usr/bin/env python
"""The CAMDOOP_DAEMON component: one Camdoop daemon per host of the torus.

camdoop_mode=nodemanager (default, for shared clusters): the daemon runs inside the host's NodeManager as its
mapreduce_shuffle service (CamdoopShuffleHandler, which hands it every job's secret and user). This component installs
the distribution, writes camdoop-site.xml and the topology where the NodeManager reads them, checks that yarn-site
loads the handler, and reports the daemon from its status endpoint; the daemon starts and stops with the NodeManager.

camdoop_mode=standalone: the daemon is its own process, started and stopped with the distribution's
sbin/camdoop-daemon.sh (without a NodeManager to vouch for jobs: for trusted clusters, see docs/security.md).
"""
import os
import socket
import time

from resource_management.core.exceptions import ComponentIsNotRunning, Fail
from resource_management.core.resources.system import Directory, Execute, File
from resource_management.libraries.functions.check_process_status import check_process_status
from resource_management.libraries.resources.xml_config import XmlConfig
from resource_management.libraries.script.script import Script


def status_endpoint_answers(port):
    try:
        socket.create_connection((socket.getfqdn(), port), timeout=3).close()
        return True
    except (IOError, OSError):
        try:
            socket.create_connection(('127.0.0.1', port), timeout=3).close()
            return True
        except (IOError, OSError):
            return False


class CamdoopDaemon(Script):

    def install(self, env):
        import params
        env.set_params(params)
        Directory(params.camdoop_home, create_parents=True)
        tarball = params.dist_tarball
        if tarball.startswith('http://') or tarball.startswith('https://'):
            local = os.path.join(params.camdoop_home, os.path.basename(tarball))
            Execute(('curl', '-fsSL', '-o', local, tarball))
            tarball = local
        if not os.path.isfile(tarball):
            raise Fail('camdoop_dist_tarball %s is not a file on this host' % tarball)
        # The tarball has one top directory, camdoop-VERSION/: its contents become camdoop_home.
        Execute(('tar', 'xzf', tarball, '-C', params.camdoop_home, '--strip-components=1'))

    def configure(self, env):
        import params
        env.set_params(params)
        for d in (params.conf_dir, params.pid_dir, params.log_dir):
            Directory(d, create_parents=True, owner=params.camdoop_user)
        # camdoop-site.xml holds the cluster secret: readable by the daemon's user only.
        XmlConfig('camdoop-site.xml', conf_dir=params.conf_dir, configurations=params.site,
                  owner=params.camdoop_user, mode=0o600)
        File(params.topology_file, content=params.topology_content, owner=params.camdoop_user, mode=0o644)
        if params.mode == 'nodemanager':
            self.check_yarn_site(params)
            # CamdoopShuffleHandler reads camdoop-site.xml from the NodeManager's class path: next to yarn-site.xml.
            XmlConfig('camdoop-site.xml', conf_dir=params.hadoop_conf_dir, configurations=params.site,
                      owner=params.camdoop_user, mode=0o600)

    @staticmethod
    def check_yarn_site(params):
        jar_dir = os.path.join(params.camdoop_home, 'share', 'camdoop')
        wanted = 'yarn.nodemanager.aux-services.mapreduce_shuffle.class'
        loaded = params.yarn_site.get(wanted, '')
        classpath = params.yarn_site.get('yarn.nodemanager.aux-services.mapreduce_shuffle.classpath', '')
        if loaded != params.shuffle_class or jar_dir not in classpath:
            raise Fail("the NodeManagers do not load Camdoop: in YARN's yarn-site set %s=%s and"
                       ' yarn.nodemanager.aux-services.mapreduce_shuffle.classpath=%s/camdoop-hadoop-<version>.jar'
                       ' (now %r and %r), then restart the NodeManagers (docs/getting-started.md, step 4)'
                       % (wanted, params.shuffle_class, jar_dir, loaded, classpath))

    def start(self, env):
        import params
        env.set_params(params)
        self.configure(env)
        if params.mode == 'standalone':
            Execute((params.daemon_script, 'start'), environment=params.daemon_env, user=params.camdoop_user)
            return
        # The NodeManager starts the daemon; wait until it answers (a NodeManager restarted by YARN meanwhile).
        deadline = time.time() + params.start_wait_seconds
        while not status_endpoint_answers(params.http_port):
            if time.time() > deadline:
                raise Fail('no Camdoop daemon answers on port %d of this host after %d s: restart the NodeManager'
                           ' here (it hosts the daemon) and check its log' % (params.http_port,
                                                                               params.start_wait_seconds))
            time.sleep(1)

    def stop(self, env):
        import params
        env.set_params(params)
        if params.mode == 'standalone':
            Execute((params.daemon_script, 'stop'), environment=params.daemon_env, user=params.camdoop_user)
        else:
            print('the Camdoop daemon runs inside the NodeManager and stops with it: nothing to do here')

    def status(self, env):
        import params
        env.set_params(params)
        if params.mode == 'standalone':
            check_process_status(params.pid_file)
        elif not status_endpoint_answers(params.http_port):
            raise ComponentIsNotRunning('no Camdoop daemon answers on port %d' % params.http_port)


if __name__ == '__main__':
    CamdoopDaemon().execute()
