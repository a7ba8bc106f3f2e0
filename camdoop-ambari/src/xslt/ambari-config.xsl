<?xml version="1.0"?>
<!--
  conf/camdoop-site.xml (Hadoop's configuration format) into an Ambari service configuration: the same keys, defaults
  and descriptions, each marked to be added on an Ambari upgrade; the cluster secret and other passwords typed so
  Ambari masks them.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="xml" indent="yes"/>
  <xsl:template match="/configuration">
    <xsl:comment> Generated from conf/camdoop-site.xml by camdoop-ambari (src/xslt/ambari-config.xsl): edit that file. </xsl:comment>
    <configuration supports_final="true">
      <xsl:for-each select="property">
        <property>
          <name><xsl:value-of select="normalize-space(name)"/></name>
          <value><xsl:value-of select="value"/></value>
          <description><xsl:value-of select="normalize-space(description)"/></description>
          <xsl:if test="contains(name, 'secret') or contains(name, 'password')">
            <property-type>PASSWORD</property-type>
            <value-attributes>
              <type>password</type>
              <empty-value-valid>true</empty-value-valid>
            </value-attributes>
          </xsl:if>
          <xsl:if test="not(contains(name, 'secret') or contains(name, 'password')) and normalize-space(value) = ''">
            <value-attributes>
              <empty-value-valid>true</empty-value-valid>
            </value-attributes>
          </xsl:if>
          <on-ambari-upgrade add="true"/>
        </property>
      </xsl:for-each>
    </configuration>
  </xsl:template>
</xsl:stylesheet>
