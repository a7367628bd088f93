package org.slf4j;

/** A logger that drops everything: the benchmark times the assignor, not logging. */
public final class LoggerFactory {
    private static final Logger SILENT = new Logger() {
        @Override
        public void warn(String format, Object... arguments) {}

        @Override
        public void info(String format, Object... arguments) {}

        @Override
        public void debug(String format, Object... arguments) {}

        @Override
        public void error(String format, Object... arguments) {}
    };

    private LoggerFactory() {}

    public static Logger getLogger(Class<?> type) {
        return SILENT;
    }
}
