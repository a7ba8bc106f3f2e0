package org.camdoop.shuffle.jobs;

import java.util.Locale;

/** The values of {@link JobsConfig#USER_CODE}: which job-supplied classes a daemon may load and run. */
public enum UserCodeMode {
    /** Any class from the job's jars. */
    ALLOW("allow"),
    /** Only classes named in {@link JobsConfig#USER_CODE_ALLOW_LIST}. */
    ALLOW_LIST("allow-list"),
    /** None: only classes on the daemon's own classpath run. */
    DENY("deny");

    private final String configValue;

    UserCodeMode(String configValue) {
        this.configValue = configValue;
    }

    /** The mode named {@code value} as written in the configuration. */
    public static UserCodeMode parse(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        for (UserCodeMode m : values()) {
            if (m.configValue.equals(v)) {
                return m;
            }
        }
        throw new IllegalArgumentException(
                JobsConfig.USER_CODE + " must be allow, allow-list or deny, got '" + value + "'");
    }

    public String configValue() {
        return configValue;
    }
}
