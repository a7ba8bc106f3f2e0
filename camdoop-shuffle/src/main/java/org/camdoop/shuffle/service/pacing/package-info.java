/** Optional pacing of vertex streams, e.g. to emulate a switch where the transport cannot (benchmarks only). */
package org.camdoop.shuffle.service.pacing;
