import java.net.http.HttpResponse;

/**
 * One answer of a bench program's setup call ({@link BenchSupport#send}). A class with fields rather than a record:
 * the programs read {@code a.status} and {@code a.body} as they did when it was nested in each of them.
 */
final class Answer {
    final int status;
    final String body;
    final HttpResponse<String> response;

    Answer(int status, String body, HttpResponse<String> response) {
        this.status = status;
        this.body = body;
        this.response = response;
    }

    String header(String name) {
        return response.headers().firstValue(name).orElse("-");
    }
}
