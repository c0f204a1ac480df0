package dev.herald.local;

import dev.herald.common.wire.WebhookEventTypes;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code ./herald listen} was asked for: the local URL to forward to, the mode, the events, the API's base URL
 * ({@code --url}, a Herald's address with or without {@code /api/v1}) and the key ({@code --key}). Without
 * {@code --url} and {@code --key}, the local suite's, from what {@code ./herald up} wrote to
 * {@code .herald/credentials} (its demo workspace's key of the mode); {@code HERALD_API_KEY} may give the key too.
 */
record ListenOptions(String forwardTo, String mode, List<String> events, String apiBase, String key) {
    /** Everything an endpoint can subscribe to; webhook.test comes anyway. */
    static final List<String> ALL_EVENTS = WebhookEventTypes.SUBSCRIBABLE;

    static final String USAGE =
            "listen --forward-to <url> [--mode test|live] [--events a,b] [--url <herald url>] [--key <api key>]";

    /** Parses the options; {@code credentials} are the local suite's ({@code .herald/credentials}), maybe empty. */
    static ListenOptions parse(List<String> args, Map<String, String> env, Map<String, String> credentials) {
        String forwardTo = null;
        String mode = null;
        List<String> events = ALL_EVENTS;
        String url = null;
        String key = env.get("HERALD_API_KEY");
        for (int i = 0; i < args.size(); i++) {
            String option = args.get(i);
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(option + " needs a value; usage: " + USAGE);
            }
            String value = args.get(++i);
            switch (option) {
                case "--forward-to" -> forwardTo = value;
                case "--mode" -> mode = value;
                case "--events" -> events = events(value);
                case "--url" -> url = value;
                case "--key" -> key = value;
                default ->
                    throw new IllegalArgumentException("unknown option for listen: " + option + "; usage: " + USAGE);
            }
        }
        if (forwardTo == null) {
            throw new IllegalArgumentException("--forward-to is required; usage: " + USAGE);
        }
        URI target = URI.create(forwardTo);
        if (!("http".equals(target.getScheme()) || "https".equals(target.getScheme())) || target.getHost() == null) {
            throw new IllegalArgumentException("--forward-to must be an http or https URL, not " + forwardTo);
        }
        if (mode != null && !mode.equals("test") && !mode.equals("live")) {
            throw new IllegalArgumentException("--mode must be test or live, not " + mode);
        }
        if (key == null) {
            String chosen = mode == null ? "test" : mode;
            key = credentials.get("test".equals(chosen) ? "HERALD_DEMO_TEST_KEY" : "HERALD_DEMO_LIVE_KEY");
            if (key == null) {
                throw new IllegalArgumentException(
                        "no API key: give --key (or HERALD_API_KEY), or start the local suite with ./herald up");
            }
        }
        // A key belongs to one mode; the endpoint is registered in the key's.
        String keyMode = key.startsWith("sk_live_") ? "live" : key.startsWith("sk_test_") ? "test" : mode;
        if (mode != null && keyMode != null && !mode.equals(keyMode)) {
            throw new IllegalArgumentException(
                    "--mode " + mode + " with a " + keyMode + " key: give a " + mode + " key");
        }
        if (url == null) {
            url = credentials.get("HERALD_BASE_URL");
            if (url == null) {
                throw new IllegalArgumentException(
                        "no Herald URL: give --url, or start the local suite with ./herald up");
            }
        }
        return new ListenOptions(forwardTo, keyMode == null ? "test" : keyMode, events, apiBase(url), key);
    }

    /** The public API's base: the URL as given when it names {@code /api/v1}, else the URL with it appended. */
    static String apiBase(String url) {
        String trimmed = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        return trimmed.endsWith("/api/v1") ? trimmed : trimmed + "/api/v1";
    }

    private static List<String> events(String value) {
        List<String> events = new ArrayList<>();
        for (String event : value.split(",")) {
            String name = event.strip();
            if (!ALL_EVENTS.contains(name)) {
                throw new IllegalArgumentException(
                        "--events: " + name + " is not one of " + String.join(", ", ALL_EVENTS));
            }
            if (!events.contains(name)) {
                events.add(name);
            }
        }
        return List.copyOf(events);
    }
}
