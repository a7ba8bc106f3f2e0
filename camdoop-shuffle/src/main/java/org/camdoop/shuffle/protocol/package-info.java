/**
 * What a task and a daemon both speak, and nothing else: the local protocol's framing ({@link
 * org.camdoop.shuffle.protocol.LocalWire}, byte tables there and in docs/local-protocol.md), the codes of shuffle mode
 * and tree choice ({@link org.camdoop.shuffle.protocol.ShuffleCodes}), refusals and their codes, the stream items a
 * reducer reads ({@link org.camdoop.shuffle.protocol.StreamItem}, {@link org.camdoop.shuffle.protocol.EndOfStream}),
 * the shuffle and job specs with their codecs, job-token proofs and map-output registrations, the port file. A leaf:
 * it depends on Hadoop's types and the torus coordinates only, never on the client or the daemon.
 */
package org.camdoop.shuffle.protocol;
