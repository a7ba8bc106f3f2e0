/**
 * The daemon side of the local protocol: {@link org.camdoop.shuffle.endpoint.LocalEndpoint}, the loopback server the
 * tasks of this server talk to. Depends on {@code org.camdoop.shuffle.protocol}, never on the task-side client.
 */
package org.camdoop.shuffle.endpoint;
