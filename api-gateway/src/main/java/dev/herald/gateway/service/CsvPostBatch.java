package dev.herald.gateway.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiError;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.PostBatchItem;
import dev.herald.common.wire.PostValidation;
import dev.herald.gateway.client.ApiAnswer;
import dev.herald.gateway.client.MemberApiClient;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows of an imported CSV as a batch of posts, for a dashboard member: {@link #check} asks
 * {@code POST /posts/validate} about each row (the dry-run table), {@link #submit} creates the chosen rows in order,
 * each as {@code POST /posts} with the row's Idempotency-Key, and answers one {@link PostBatchItem} per row as
 * {@code POST /posts/batch} does. The dashboard's calls are never metered, so it does not need the batch endpoint; if it
 * ever should (one call instead of up to 100), only {@link #submit}'s body changes.
 */
@ApplicationScoped
public class CsvPostBatch {
    /** Dry runs in flight at once for one file: the validation probes media, which can take a while per row. */
    private static final int CHECKS_AT_ONCE = 4;

    /** A row and every problem found with it: its cells' own, or the API's. */
    public record RowCheck(PostCsvRow row, List<FieldError> problems) {
        public boolean valid() {
            return problems.isEmpty();
        }
    }

    private final MemberApiClient api;
    private final ObjectMapper mapper;

    public CsvPostBatch(MemberApiClient api, ObjectMapper mapper) {
        this.api = api;
        this.mapper = mapper;
    }

    /** Each row's problems, in the file's order; a row whose cells are wrong is not sent to the API. */
    public Uni<List<RowCheck>> check(DashboardCaller caller, PostCsvReader.Sheet sheet) {
        return Multi.createFrom()
                .iterable(sheet.rows())
                .onItem()
                .transformToUni(row -> row.problems().isEmpty()
                        ? validate(caller, row)
                        : Uni.createFrom().item(new RowCheck(row, row.problems())))
                .merge(CHECKS_AT_ONCE)
                .collect()
                .asList()
                .map(checks -> checks.stream()
                        .sorted(Comparator.comparingInt(check -> check.row().number()))
                        .toList());
    }

    /**
     * Creates the rows numbered in {@code chosen} whose cells have no problem, one after the other in the file's
     * order. {@code index} is the row's number less one. A service that does not answer fails that row only (503), so
     * the rows before it keep their posts and a resubmission replays them.
     */
    public Uni<List<PostBatchItem>> submit(DashboardCaller caller, PostCsvReader.Sheet sheet, Set<Integer> chosen) {
        List<PostCsvRow> rows = sheet.rows().stream()
                .filter(row -> chosen.contains(row.number()) && row.problems().isEmpty())
                .toList();
        return Multi.createFrom()
                .iterable(rows)
                .onItem()
                .transformToUniAndConcatenate(row -> create(caller, sheet.fingerprint(), row))
                .collect()
                .asList();
    }

    private Uni<RowCheck> validate(DashboardCaller caller, PostCsvRow row) {
        return api.send(caller, "POST", "/posts/validate", row.body()).map(answer -> {
            if (answer.status() == 400 || answer.status() == 422) {
                List<FieldError> refused = new ArrayList<>();
                answer.fieldErrors().forEach((field, message) -> refused.add(new FieldError(field, "", message)));
                return new RowCheck(row, refused.isEmpty() ? List.of(problem(answer)) : refused);
            }
            PostValidation validation = api.data(answer, PostValidation.class);
            List<FieldError> problems = new ArrayList<>(validation.problems());
            for (PostValidation.TargetProblems target : validation.targets()) {
                for (FieldError problem : target.problems()) {
                    // A target's problem says which account it is about (the row may name several), once.
                    String message = problem.message().contains(target.accountId())
                            ? problem.message()
                            : target.accountId() + ": " + problem.message();
                    problems.add(new FieldError(problem.field(), problem.code(), message));
                }
            }
            return new RowCheck(row, List.copyOf(problems));
        });
    }

    private Uni<PostBatchItem> create(DashboardCaller caller, String fingerprint, PostCsvRow row) {
        int index = row.number() - 1;
        return api.send(
                        caller,
                        "POST",
                        "/posts",
                        row.body(),
                        Map.of("Idempotency-Key", row.idempotencyKey(fingerprint)))
                .map(answer -> answer.ok()
                        ? new PostBatchItem(index, answer.status(), answer.data(), null)
                        : new PostBatchItem(index, answer.status(), null, error(answer)))
                .onFailure(DashboardRefusal.class)
                .recoverWithItem(refusal -> new PostBatchItem(
                        index,
                        ((DashboardRefusal) refusal).status(),
                        null,
                        new ApiError("service_unavailable", refusal.getMessage(), Map.of())));
    }

    private ApiError error(ApiAnswer answer) {
        JsonNode error = answer.body().path("error");
        return error.isObject()
                ? mapper.convertValue(error, ApiError.class)
                : new ApiError("request_failed", answer.errorMessage(), Map.of());
    }

    private static FieldError problem(ApiAnswer answer) {
        return new FieldError(PostCsvRow.ROW, answer.errorCode(), answer.errorMessage());
    }
}
