package dev.herald.fakes.service;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The comments other people left on everything a fake published: a pure function of the item's id, like
 * {@link PublishedMetrics}' numbers, so every read shows the same ones (Herald upserts them by the platform's id) and a
 * test can compute them. With {@code s} the first 8 hex digits of SHA-256 of the platform's id of the item, there are
 * three, all dated at the item's publication: two top-level comments by {@code CAST[s mod 4]} and
 * {@code CAST[(s + 1) mod 4]} saying {@code TOP[s mod 6]} and {@code TOP[(s + 1) mod 6]}, and a reply to the first by
 * {@code CAST[(s + 2) mod 4]} saying {@code REPLIES[s mod 3]}. Each fake gives them its own ids (derived from the item's
 * id with {@link #digits} or {@link #letters}) and shapes; the commenters have an identity on every platform.
 */
public final class SeededComments {

    /** Someone who comments, as each platform identifies them. */
    public record Commenter(
            String name,
            String facebookId,
            String instagramId,
            String instagramUsername,
            String youtubeChannelId,
            String linkedinUrn) {}

    /**
     * One seeded comment: the {@code index}-th of the item's (0 to 2), replying to the {@code parentIndex}-th (null for a
     * top-level comment).
     */
    public record Seed(int index, Integer parentIndex, String text, Commenter author) {}

    public static final List<Commenter> CAST = List.of(
            new Commenter(
                    "Mara Quinn",
                    "7104583926614870",
                    "17841400000000101",
                    "mara.quinn.bakes",
                    "UCmaraQuinnFakeViewer001",
                    "urn:li:person:mQ7rAqu1nn"),
            new Commenter(
                    "Theo Lindqvist",
                    "5531902847716632",
                    "17841400000000102",
                    "theo.lindqvist",
                    "UCtheoLindqvistFakeView2",
                    "urn:li:person:tL1ndqv1sT"),
            new Commenter(
                    "Ada Okafor",
                    "6248813095527719",
                    "17841400000000103",
                    "ada.okafor",
                    "UCadaOkaforFakeViewer003",
                    "urn:li:person:aD4oKaf0rX"),
            new Commenter(
                    "Jun Park",
                    "3892057716430028",
                    "17841400000000104",
                    "junpark.eats",
                    "UCjunParkFakeViewer00004",
                    "urn:li:person:jUnP4rk9Zq"));

    public static final List<String> TOP = List.of(
            "This looks great!",
            "Where can I find out more about this?",
            "Saving this for later.",
            "Love it, congratulations to the team.",
            "How long did this take?",
            "First time I see this, very cool.");

    public static final List<String> REPLIES =
            List.of("Same question here.", "Agreed, it really is.", "Following this thread.");

    private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    private SeededComments() {}

    /** The item's seeded comments, oldest first (a reply after the comment it answers). */
    public static List<Seed> of(String itemId) {
        long s = PublishedMetrics.seed(itemId);
        return List.of(
                new Seed(0, null, TOP.get((int) (s % TOP.size())), CAST.get((int) (s % CAST.size()))),
                new Seed(1, null, TOP.get((int) ((s + 1) % TOP.size())), CAST.get((int) ((s + 1) % CAST.size()))),
                new Seed(2, 0, REPLIES.get((int) (s % REPLIES.size())), CAST.get((int) ((s + 2) % CAST.size()))));
    }

    /** {@code length} digits (up to 70, the first not zero) that depend only on the item and the seed's index. */
    public static String digits(String itemId, int index, int length) {
        return new BigInteger(1, hash(itemId, index)).toString().substring(0, length);
    }

    /** {@code length} URL-safe letters (up to 32) that depend only on the item and the seed's index. */
    public static String letters(String itemId, int index, int length) {
        byte[] hash = hash(itemId, index);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(LETTERS.charAt((hash[i] & 0xff) % LETTERS.length()));
        }
        return text.toString();
    }

    private static byte[] hash(String itemId, int index) {
        try {
            return MessageDigest.getInstance("SHA-256").digest((itemId + "#" + index).getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
