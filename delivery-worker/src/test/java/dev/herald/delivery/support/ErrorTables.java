package dev.herald.delivery.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.delivery.provider.ErrorTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * For the platform tables' tests: docs/errors.md, the customer's reference, lists each table row for row.
 */
public final class ErrorTables {
    private static final Path DOC = Path.of("..", "docs", "errors.md");

    private ErrorTables() {}

    /** The table's section as the reference gives it: its heading, then {@link ErrorTable#markdown()}. */
    public static String section(String heading, ErrorTable table) {
        return "### " + heading + "\n\n" + table.markdown();
    }

    public static void assertListed(String heading, ErrorTable table) {
        String doc;
        try {
            doc = Files.readString(DOC);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(doc)
                .as("docs/errors.md lists the %s table as the code has it", heading)
                .contains(section(heading, table));
    }
}
