/** The wire format: a closed set of length-prefixed frames, their decoder and their encoders. */
package org.camdoop.torus.transport.wire;
