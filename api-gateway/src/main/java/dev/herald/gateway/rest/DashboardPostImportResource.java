package dev.herald.gateway.rest;

import dev.herald.common.api.FieldError;
import dev.herald.common.wire.PostBatchItem;
import dev.herald.gateway.service.CsvPostBatch;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
import dev.herald.gateway.service.PostCsvReader;
import dev.herald.gateway.service.PostCsvRow;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/**
 * Importing posts from a CSV file (issue 38), for members whose role may create posts: the upload, a dry-run table of
 * every row's problems ({@code POST /posts/validate} per row), and the scheduling of the rows without problems. The
 * file travels from the dry run to the submission as its own bytes (base64url in a hidden field, with the CSRF token)
 * and is read and checked again there: nothing the preview showed is trusted. Each row's Idempotency-Key comes from the
 * file's SHA-256 and the row's number, so submitting the same table twice creates each post once.
 */
@Path("/dashboard/w/{workspace}/{mode}/posts/import")
@Produces(MediaType.TEXT_HTML)
public class DashboardPostImportResource {
    static final String SAMPLE = """
            text,account_ids,scheduled_at,media_urls,first_comment
            "Fresh bread at nine, every day.",acc_replace_me,2030-01-01T09:00:00Z,https://example.org/bread.jpg,Recipe in the comments
            Our summer menu is out,acc_replace_me;acc_replace_me_too,next_slot,,
            A post published at once,acc_replace_me,,,
            """;
    private static final int SHOWN_TEXT = 80;
    private static final Set<String> CSV_TYPES = Set.of("text/csv", "text/plain", "application/csv");

    /** A row of the dry-run table. */
    public record PreviewRow(int number, String text, List<String> accounts, String when, List<FieldError> problems) {
        public boolean valid() {
            return problems.isEmpty();
        }
    }

    /** The dry run: its rows, the file for the submission, and the numbers of the rows to schedule. */
    public record Preview(String fileName, List<PreviewRow> rows, String upload, String chosen, int validCount) {
        public int invalidCount() {
            return rows.size() - validCount;
        }
    }

    /** A row of the results table: the post created (or replayed) for it, or why not. */
    public record ResultRow(
            int number, String text, String postId, boolean replayed, String error, List<String> details) {}

    @CheckedTemplate(basePath = "dashboard/posts")
    static class Templates {
        static native TemplateInstance csvImport(
                DashboardCaller caller, String section, String columns, Map<String, String> errors, Preview preview);

        static native TemplateInstance csvResults(
                DashboardCaller caller, String section, List<ResultRow> results, int created, int failed);
    }

    private final DashboardAccess access;
    private final DashboardResponses responses;
    private final CsvPostBatch batch;
    private final Vertx vertx;

    public DashboardPostImportResource(
            DashboardAccess access, DashboardResponses responses, CsvPostBatch batch, Vertx vertx) {
        this.access = access;
        this.responses = responses;
        this.batch = batch;
        this.vertx = vertx;
    }

    @GET
    public Uni<Response> form(@BeanParam WorkspacePage requested) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .map(caller -> {
                    requireScheduling(caller);
                    return page(caller, Map.of(), null);
                }));
    }

    @GET
    @Path("/sample.csv")
    @Produces("text/csv")
    public Uni<Response> sample(@BeanParam WorkspacePage requested) {
        return responses.respond(access.open(requested.session, requested.workspace, requested.mode)
                .map(caller -> Response.ok(SAMPLE)
                        .type("text/csv;charset=UTF-8")
                        .header("Content-Disposition", "attachment; filename=\"herald-posts.csv\"")
                        .build()));
    }

    @POST
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Uni<Response> preview(
            @BeanParam WorkspacePage requested, @RestForm("csrf") String csrf, @RestForm("file") FileUpload file) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    requireScheduling(caller);
                    String refused = fileProblem(file);
                    if (refused != null) {
                        return Uni.createFrom().item(refusedFile(caller, refused));
                    }
                    return vertx.fileSystem()
                            .readFile(file.uploadedFile().toString())
                            .flatMap(content -> dryRun(caller, file.fileName(), content.getBytes()));
                }));
    }

    @POST
    @Path("/schedule")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> schedule(
            @BeanParam WorkspacePage requested,
            @FormParam("csrf") String csrf,
            @FormParam("upload") String upload,
            @FormParam("rows") String rows) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    requireScheduling(caller);
                    PostCsvReader.Sheet sheet;
                    try {
                        sheet = PostCsvReader.read(Base64.getUrlDecoder().decode(upload == null ? "" : upload));
                    } catch (PostCsvReader.CsvFileProblem problem) {
                        return Uni.createFrom().item(refusedFile(caller, problem.getMessage()));
                    } catch (IllegalArgumentException altered) {
                        return Uni.createFrom().item(refusedFile(caller, "Upload the file again."));
                    }
                    return batch.submit(caller, sheet, numbers(rows)).map(items -> results(caller, sheet, items));
                }));
    }

    private Uni<Response> dryRun(DashboardCaller caller, String fileName, byte[] bytes) {
        PostCsvReader.Sheet sheet;
        try {
            sheet = PostCsvReader.read(bytes);
        } catch (PostCsvReader.CsvFileProblem problem) {
            return Uni.createFrom().item(refusedFile(caller, problem.getMessage()));
        }
        return batch.check(caller, sheet).map(checks -> {
            List<PreviewRow> rows = checks.stream()
                    .map(check -> new PreviewRow(
                            check.row().number(),
                            shortened(check.row().text()),
                            check.row().accountIds(),
                            when(check.row()),
                            check.problems()))
                    .toList();
            String chosen = rows.stream()
                    .filter(PreviewRow::valid)
                    .map(row -> Integer.toString(row.number()))
                    .collect(Collectors.joining(" "));
            int valid = (int) rows.stream().filter(PreviewRow::valid).count();
            Preview preview = new Preview(
                    fileName, rows, Base64.getUrlEncoder().withoutPadding().encodeToString(bytes), chosen, valid);
            return DashboardResponses.page(200, page(caller, Map.of(), preview));
        });
    }

    private Response results(DashboardCaller caller, PostCsvReader.Sheet sheet, List<PostBatchItem> items) {
        Map<Integer, PostCsvRow> byNumber =
                sheet.rows().stream().collect(Collectors.toMap(PostCsvRow::number, Function.identity()));
        List<ResultRow> results = items.stream()
                .map(item -> {
                    String text = shortened(byNumber.get(item.index() + 1).text());
                    if (item.post() != null) {
                        return new ResultRow(
                                item.index() + 1,
                                text,
                                item.post().path("id").asText(),
                                item.status() == 200,
                                null,
                                List.of());
                    }
                    return new ResultRow(
                            item.index() + 1, text, null, false, item.error().message(), details(item));
                })
                .toList();
        int created = (int) results.stream().filter(row -> row.postId() != null).count();
        return DashboardResponses.page(
                200, Templates.csvResults(caller, "posts", results, created, results.size() - created));
    }

    private TemplateInstance page(DashboardCaller caller, Map<String, String> errors, Preview preview) {
        return Templates.csvImport(caller, "posts", String.join(",", PostCsvReader.COLUMNS), errors, preview);
    }

    private Response refusedFile(DashboardCaller caller, String message) {
        return DashboardResponses.page(422, page(caller, Map.of("file", message), null));
    }

    /** What is wrong with the upload before its content is read; null when nothing. */
    private static String fileProblem(FileUpload file) {
        if (file == null || file.fileName() == null || file.fileName().isBlank()) {
            return "Choose a CSV file to upload.";
        }
        if (file.size() > PostCsvReader.MAX_BYTES) {
            return "The file is larger than 1 MiB. Split it into smaller files.";
        }
        String name = file.fileName().toLowerCase(Locale.ROOT);
        String type = file.contentType() == null
                ? ""
                : file.contentType().split(";")[0].strip().toLowerCase(Locale.ROOT);
        if (!name.endsWith(".csv") && !name.endsWith(".txt") && !CSV_TYPES.contains(type)) {
            return "The file is not a CSV file. Save the sheet as \"CSV UTF-8\" (.csv) and upload that.";
        }
        return null;
    }

    private static void requireScheduling(DashboardCaller caller) {
        if (!caller.role().schedulesPosts()) {
            throw DashboardRefusal.forbidden(
                    "Your role (" + caller.role().wireName() + ") cannot create posts. Ask an owner of the workspace.");
        }
    }

    /** The row numbers the dry run chose ("1 2 5"); anything else in the field is ignored. */
    private static Set<Integer> numbers(String rows) {
        Set<Integer> numbers = new LinkedHashSet<>();
        for (String number : (rows == null ? "" : rows).split("\\s+")) {
            if (number.matches("\\d{1,3}")) {
                numbers.add(Integer.parseInt(number));
            }
        }
        return numbers;
    }

    private static List<String> details(PostBatchItem item) {
        if (!(item.error().details().get("errors") instanceof List<?> errors)) {
            return List.of();
        }
        return errors.stream()
                .filter(Map.class::isInstance)
                .map(error -> ((Map<?, ?>) error).get("field") + ": " + ((Map<?, ?>) error).get("message"))
                .toList();
    }

    private static String when(PostCsvRow row) {
        if (row.scheduledAt() == null) {
            return "now";
        }
        return PostCsvRow.NEXT_SLOT.equals(row.scheduledAt()) ? "next free slot" : row.scheduledAt();
    }

    private static String shortened(String text) {
        String oneLine = text.strip().replaceAll("\\s+", " ");
        if (oneLine.codePointCount(0, oneLine.length()) <= SHOWN_TEXT) {
            return oneLine;
        }
        return oneLine.substring(0, oneLine.offsetByCodePoints(0, SHOWN_TEXT - 1)) + "…";
    }
}
