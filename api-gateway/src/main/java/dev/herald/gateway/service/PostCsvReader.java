package dev.herald.gateway.service;

import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostBatchItem;
import dev.herald.common.wire.PostMedia;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads the dashboard's CSV of posts (RFC 4180 by commons-csv: quoted fields with commas, quotes and line breaks, CRLF
 * or LF; UTF-8 with or without a byte-order mark) into one {@link PostCsvRow} per data row. Columns are found by their
 * header name, in any order and case; a column it does not know refuses the file, since a misspelt
 * {@code scheduled_at} would otherwise publish every row at once. What makes the whole file unusable (not UTF-8, not
 * CSV, a required column missing, no rows or more than {@link #MAX_ROWS}) is a {@link CsvFileProblem}; what is wrong
 * with one row's cells is that row's problem, and the API judges the rest ({@code POST /posts/validate}).
 */
public final class PostCsvReader {
    /** The largest file taken. */
    public static final int MAX_BYTES = 1024 * 1024;
    /** At most this many rows: as many posts as one {@code POST /posts/batch}. */
    public static final int MAX_ROWS = PostBatchItem.MAX_POSTS;

    public static final String TEXT = "text";
    public static final String ACCOUNT_IDS = "account_ids";
    public static final String SCHEDULED_AT = "scheduled_at";
    public static final String MEDIA_URLS = "media_urls";
    public static final String MEDIA_TYPES = "media_types";
    public static final String FIRST_COMMENT = "first_comment";
    public static final List<String> COLUMNS =
            List.of(TEXT, ACCOUNT_IDS, SCHEDULED_AT, MEDIA_URLS, MEDIA_TYPES, FIRST_COMMENT);
    private static final List<String> REQUIRED = List.of(TEXT, ACCOUNT_IDS);
    private static final List<String> MEDIA_TYPE_NAMES =
            List.of(Post.Media.IMAGE, Post.Media.VIDEO, Post.Media.DOCUMENT);

    private static final Pattern ACCOUNT_SEPARATORS = Pattern.compile("[\\s;,]+");
    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final CSVFormat FORMAT =
            CSVFormat.RFC4180.builder().setIgnoreEmptyLines(true).get();

    /** The rows of one file; {@code fingerprint} is the SHA-256 of its bytes, the upload's identity. */
    public record Sheet(String fingerprint, List<PostCsvRow> rows) {}

    /** Why a file cannot be imported at all; the message is for the person who chose it. */
    public static final class CsvFileProblem extends RuntimeException {
        public CsvFileProblem(String message) {
            super(message, null, false, false);
        }
    }

    private PostCsvReader() {}

    public static Sheet read(byte[] bytes) {
        if (bytes.length > MAX_BYTES) {
            throw new CsvFileProblem("The file is larger than 1 MiB. Split it into smaller files.");
        }
        String text = utf8(bytes);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        if (text.indexOf('\0') >= 0) {
            throw new CsvFileProblem("The file is not a CSV text file. Save the sheet as CSV (UTF-8) and upload that.");
        }
        try (CSVParser parser = CSVParser.parse(new StringReader(text), FORMAT)) {
            var records = parser.iterator();
            if (!records.hasNext()) {
                throw new CsvFileProblem("The file is empty: it needs a header row and one row per post.");
            }
            CSVRecord header = records.next();
            Map<String, Integer> columns = header(header);
            List<PostCsvRow> rows = new ArrayList<>();
            while (records.hasNext()) {
                CSVRecord record = records.next();
                if (blank(record)) {
                    continue;
                }
                if (rows.size() == MAX_ROWS) {
                    throw new CsvFileProblem("The file has more than " + MAX_ROWS + " rows; at most " + MAX_ROWS
                            + " posts are imported at once. Split it into smaller files.");
                }
                rows.add(row(rows.size() + 1, record, columns, header.size()));
            }
            if (rows.isEmpty()) {
                throw new CsvFileProblem("The file has a header but no rows: add one row per post.");
            }
            return new Sheet(sha256(bytes), List.copyOf(rows));
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            // commons-csv's own words name the line, e.g. "EOF reached before encapsulated token finished".
            throw new CsvFileProblem("The file is not readable as CSV: " + e.getMessage());
        }
    }

    private static Map<String, Integer> header(CSVRecord record) {
        Map<String, Integer> columns = new LinkedHashMap<>();
        for (int i = 0; i < record.size(); i++) {
            String name = record.get(i).strip().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue; // a spreadsheet's trailing empty column
            }
            if (!COLUMNS.contains(name)) {
                throw new CsvFileProblem("The header names an unknown column \""
                        + record.get(i).strip() + "\". The columns are " + String.join(", ", COLUMNS) + ".");
            }
            if (columns.putIfAbsent(name, i) != null) {
                throw new CsvFileProblem("The header names the column \"" + name + "\" twice.");
            }
        }
        for (String required : REQUIRED) {
            if (!columns.containsKey(required)) {
                throw new CsvFileProblem("The header has no \"" + required + "\" column. The first row must name the"
                        + " columns, e.g. " + String.join(",", COLUMNS) + ".");
            }
        }
        return columns;
    }

    private static PostCsvRow row(int number, CSVRecord record, Map<String, Integer> columns, int width) {
        List<FieldError> problems = new ArrayList<>();
        for (int i = width; i < record.size(); i++) {
            if (!record.get(i).isBlank()) {
                // Most often a text with a comma that was not put in quotes: its columns have shifted.
                problems.add(new FieldError(
                        PostCsvRow.ROW,
                        "invalid_format",
                        "The row has more cells than the header: put a text holding commas in double quotes."));
                break;
            }
        }
        String accounts = cell(record, columns, ACCOUNT_IDS).strip();
        List<String> accountIds = accounts.isEmpty() ? List.of() : Arrays.asList(ACCOUNT_SEPARATORS.split(accounts));
        String scheduled = cell(record, columns, SCHEDULED_AT).strip();
        if (scheduled.equalsIgnoreCase(PostCsvRow.NEXT_SLOT)) {
            scheduled = PostCsvRow.NEXT_SLOT;
        }
        String comment = cell(record, columns, FIRST_COMMENT);
        return new PostCsvRow(
                number,
                cell(record, columns, TEXT),
                accountIds,
                scheduled.isEmpty() ? null : scheduled,
                media(cell(record, columns, MEDIA_URLS), cell(record, columns, MEDIA_TYPES), problems),
                comment.isBlank() ? null : comment,
                List.copyOf(problems));
    }

    private static PostMedia media(String urlCell, String typeCell, List<FieldError> problems) {
        List<String> urls = words(urlCell);
        List<String> types = words(typeCell.toLowerCase(Locale.ROOT));
        if (urls.isEmpty()) {
            if (!types.isEmpty()) {
                problems.add(new FieldError(MEDIA_TYPES, "invalid_value", "media_types is given without media_urls."));
            }
            return null;
        }
        if (!types.isEmpty() && types.size() != urls.size()) {
            problems.add(new FieldError(
                    MEDIA_TYPES,
                    "invalid_value",
                    "media_types names " + types.size() + " types for " + urls.size() + " media URLs."));
            return null;
        }
        List<Post.Media> items = new ArrayList<>();
        for (int i = 0; i < urls.size(); i++) {
            String url = urls.get(i);
            if (!https(url)) {
                problems.add(new FieldError(
                        MEDIA_URLS,
                        "invalid_format",
                        "\"" + url + "\" is not an https URL; separate several URLs with spaces."));
                continue;
            }
            String type = types.isEmpty() ? typeOf(url) : types.get(i);
            if (!MEDIA_TYPE_NAMES.contains(type)) {
                problems.add(new FieldError(
                        MEDIA_TYPES, "invalid_value", "\"" + type + "\" is not one of image, video, document."));
                continue;
            }
            items.add(new Post.Media(url, type));
        }
        if (!problems.isEmpty()) {
            return null;
        }
        return items.size() == 1 ? PostMedia.single(items.get(0)) : PostMedia.listed(items);
    }

    /** The type a URL's file name suggests: .mp4/.mov video, .pdf document, anything else an image. */
    static String typeOf(String url) {
        String path = URI.create(url).getPath().toLowerCase(Locale.ROOT);
        if (path.endsWith(".mp4") || path.endsWith(".mov")) {
            return Post.Media.VIDEO;
        }
        return path.endsWith(".pdf") ? Post.Media.DOCUMENT : Post.Media.IMAGE;
    }

    private static boolean https(String url) {
        try {
            URI uri = new URI(url);
            return "https".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** A cell's value with a CRLF inside quotes read as one line break; "" for a column absent or cut short. */
    private static String cell(CSVRecord record, Map<String, Integer> columns, String column) {
        Integer index = columns.get(column);
        if (index == null || index >= record.size()) {
            return "";
        }
        return record.get(index).replace("\r\n", "\n");
    }

    private static List<String> words(String cell) {
        String stripped = cell.strip();
        return stripped.isEmpty() ? List.of() : Arrays.asList(SPACES.split(stripped));
    }

    private static boolean blank(CSVRecord record) {
        return record.stream().allMatch(String::isBlank);
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new CsvFileProblem("The file is not UTF-8 text. Save the sheet as \"CSV UTF-8\" and upload that.");
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
