import os
from xml.sax.saxutils import escape

from resource_management.core.resources.system import File


def XmlConfig(filename, conf_dir, configurations, configuration_attributes=None, owner=None, mode=None):
    """Writes configurations (name -> value) as a Hadoop configuration file, as Ambari's XmlConfig does."""
    lines = ['<?xml version="1.0"?>', '<!-- written by Ambari -->', '<configuration>']
    for name in sorted(configurations):
        lines.append('  <property>')
        lines.append('    <name>%s</name>' % escape(name))
        lines.append('    <value>%s</value>' % escape(str(configurations[name])))
        lines.append('  </property>')
    lines.append('</configuration>')
    File(os.path.join(conf_dir, filename), content='\n'.join(lines) + '\n', owner=owner, mode=mode)
