/** The Camdoop shuffle service and its Hadoop bridges (map-output collector, shuffle consumer plug-in). */
package org.camdoop.shuffle;
