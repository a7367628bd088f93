package org.slf4j;

/** The part of slf4j's Logger that Kafka's streams assignor calls; it logs nothing. */
public interface Logger {
    void warn(String format, Object... arguments);

    void info(String format, Object... arguments);

    void debug(String format, Object... arguments);

    void error(String format, Object... arguments);
}
