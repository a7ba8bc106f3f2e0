/** End-to-end tests: stock Hadoop jobs on a mini cluster, Camdoop shuffle against the stock shuffle. */
package org.camdoop.it;
