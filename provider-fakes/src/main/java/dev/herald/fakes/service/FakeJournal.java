package dev.herald.fakes.service;

import dev.herald.fakes.config.FakesConfig;
import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.JournalEntry;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;

/** Every request the fake platforms received, per platform, oldest first, with credentials in headers hashed. */
@ApplicationScoped
public class FakeJournal {
    private final Map<String, Deque<JournalEntry>> entries = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();
    private final int capacity;

    public FakeJournal(FakesConfig config) {
        this.capacity = config.journalCapacity();
    }

    public void record(FakeRequest request, FakeResponse response, ArmedFailure failure) {
        Deque<JournalEntry> platform =
                entries.computeIfAbsent(request.platform(), name -> new ConcurrentLinkedDeque<>());
        platform.addLast(new JournalEntry(
                sequence.incrementAndGet(),
                request.platform(),
                Instant.now(),
                request.method(),
                request.path(),
                request.query(),
                request.rawQuery(),
                masked(request.headers()),
                request.upload() != null ? request.upload().summary() : request.body(),
                response.status(),
                failure == null ? null : failure.getKind().wireName()));
        while (platform.size() > capacity) {
            platform.pollFirst();
        }
    }

    /** One platform's requests, or every platform's in the order received when {@code platform} is null. */
    public List<JournalEntry> entries(String platform) {
        if (platform != null) {
            return List.copyOf(entries.getOrDefault(platform, new ConcurrentLinkedDeque<>()));
        }
        List<JournalEntry> all = new ArrayList<>();
        entries.values().forEach(all::addAll);
        all.sort((a, b) -> Long.compare(a.sequence(), b.sequence()));
        return all;
    }

    public void clear(String platform) {
        if (platform == null) {
            entries.clear();
        } else {
            entries.remove(platform);
        }
    }

    /** {@code Bearer sha256:<16 hex>}: the scheme stays readable, the credential does not. */
    public static String maskedAuthorization(String value) {
        int space = value.indexOf(' ');
        String scheme = space < 0 ? "" : value.substring(0, space + 1);
        return scheme + "sha256:" + sha256(value.substring(space + 1).trim()).substring(0, 16);
    }

    private static Map<String, List<String>> masked(Map<String, List<String>> headers) {
        Map<String, List<String>> masked = new LinkedHashMap<>(headers);
        List<String> authorization = headers.get("authorization");
        if (authorization != null) {
            masked.put(
                    "authorization",
                    authorization.stream().map(FakeJournal::maskedAuthorization).toList());
        }
        return masked;
    }

    static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
