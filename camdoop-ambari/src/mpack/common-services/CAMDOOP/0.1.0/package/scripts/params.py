#!/usr/bin/env python
"""The command's configuration, as the CAMDOOP scripts use it (Ambari sets these from camdoop-env, camdoop-site and
camdoop-topology)."""
import os

from resource_management.libraries.script.script import Script

config = Script.get_config()
configurations = config['configurations']

env = configurations['camdoop-env']
site = dict(configurations['camdoop-site'])
topology_content = configurations['camdoop-topology']['content']

dist_tarball = env['camdoop_dist_tarball']
camdoop_home = env['camdoop_home']
camdoop_user = env['camdoop_user']
conf_dir = env['camdoop_conf_dir']
pid_dir = env['camdoop_pid_dir']
log_dir = env['camdoop_log_dir']
java_opts = env.get('camdoop_java_opts', '')
# nodemanager: the daemon runs inside each NodeManager as its mapreduce_shuffle (CamdoopShuffleHandler), which hands it
# every job's secret (the deployment for shared clusters); standalone: its own process (sbin/camdoop-daemon.sh).
mode = env.get('camdoop_mode', 'nodemanager')
if mode not in ('nodemanager', 'standalone'):
    raise ValueError('camdoop_mode must be nodemanager or standalone, got %r' % mode)
hadoop_conf_dir = env.get('hadoop_conf_dir', '/etc/hadoop/conf')
yarn_site = configurations.get('yarn-site', {})
shuffle_class = 'org.camdoop.shuffle.daemon.CamdoopShuffleHandler'

topology_file = os.path.join(conf_dir, 'topology')
if site.get('camdoop.topology.file', '') in ('', 'conf/topology'):
    # The template's relative default means "beside camdoop-site.xml"; here that is the conf dir Ambari writes.
    site['camdoop.topology.file'] = topology_file

# The name sbin/camdoop-daemon.sh gives the pid, status and log files (CAMDOOP_IDENT_STRING).
ident = 'ambari'
pid_file = os.path.join(pid_dir, 'camdoop-%s-daemon.pid' % ident)
status_file = os.path.join(pid_dir, 'camdoop-%s-daemon.status' % ident)
daemon_script = os.path.join(camdoop_home, 'sbin', 'camdoop-daemon.sh')
http_port = int(site.get('camdoop.daemon.http.port', '7711') or 7711)
start_wait_seconds = int(env.get('camdoop_start_wait_seconds', '120'))

daemon_env = {
    'CAMDOOP_CONF_DIR': conf_dir,
    'CAMDOOP_PID_DIR': pid_dir,
    'CAMDOOP_LOG_DIR': log_dir,
    'CAMDOOP_IDENT_STRING': ident,
    'CAMDOOP_JAVA_OPTS': java_opts,
}
