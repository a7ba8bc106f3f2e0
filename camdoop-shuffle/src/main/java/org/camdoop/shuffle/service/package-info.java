/** The Camdoop shuffle service: what one shuffle is, and the daemon-side machinery that runs it on the torus. */
package org.camdoop.shuffle.service;
