package org.camdoop.shuffle.daemon;

/**
 * Makes an {@link EmbeddedTorus} behave like servers on one switch: every server gets one link to the switch of
 * {@code bytesPerSecond} per direction, shared by all its streams (see
 * {@link org.camdoop.shuffle.service.pacing.SwitchPacer}). Meant for direct mode, the paper's switch baseline; the
 * transport must then run unshaped, so the torus links do not limit the streams a second time.
 *
 * @param bytesPerSecond each server's switch link rate, per direction
 * @param burstBytes     bytes a switch link may send back to back after being idle
 */
public record SwitchEmulation(long bytesPerSecond, long burstBytes) {

    public SwitchEmulation {
        if (bytesPerSecond <= 0 || burstBytes <= 0) {
            throw new IllegalArgumentException("switch link rate and burst must be positive, got " + bytesPerSecond
                    + " B/s and " + burstBytes + " B");
        }
    }
}
