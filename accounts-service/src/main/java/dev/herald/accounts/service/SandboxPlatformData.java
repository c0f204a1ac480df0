package dev.herald.accounts.service;

import dev.herald.common.wire.PinterestBoard;
import dev.herald.common.wire.PinterestBoardSection;
import dev.herald.common.wire.TikTokPublishingOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The simulated platform data of test accounts: the same account always shows the same publishing options,
 * boards and sections, and the lists are longer than one default page so that paging can be exercised.
 */
final class SandboxPlatformData {
    static final int BOARDS = 60;
    static final int SECTIONS_PER_BOARD = 55;
    private static final List<String> PRIVACY_LEVELS =
            List.of("PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY");

    private SandboxPlatformData() {}

    static TikTokPublishingOptions publishingOptions(String accountId, String name, String username) {
        return new TikTokPublishingOptions(name, username, null, PRIVACY_LEVELS, false, false, true, 600);
    }

    static List<PinterestBoard> boards(String accountId) {
        String base = digits(accountId, 12);
        List<PinterestBoard> boards = new ArrayList<>(BOARDS);
        for (int i = 0; i < BOARDS; i++) {
            boards.add(new PinterestBoard(
                    boardId(base, i),
                    "Test board " + (i + 1),
                    "A simulated board of a test account.",
                    i % 5 == 4 ? "SECRET" : "PUBLIC"));
        }
        return boards;
    }

    /** The board's sections, or empty when the account has no such board. */
    static Optional<List<PinterestBoardSection>> sections(String accountId, String boardId) {
        String base = digits(accountId, 12);
        for (int board = 0; board < BOARDS; board++) {
            if (boardId(base, board).equals(boardId)) {
                List<PinterestBoardSection> sections = new ArrayList<>(SECTIONS_PER_BOARD);
                for (int s = 0; s < SECTIONS_PER_BOARD; s++) {
                    sections.add(new PinterestBoardSection(
                            "7" + base + String.format("%03d%03d", board, s), "Section " + (s + 1)));
                }
                return Optional.of(sections);
            }
        }
        return Optional.empty();
    }

    /** 18-digit numeric ids, beyond 2^53 like Pinterest's own, so a client that parses them as numbers breaks visibly. */
    private static String boardId(String base, int index) {
        return "5" + base + String.format("%05d", index);
    }

    private static String digits(String seed, int count) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
            StringBuilder digits = new StringBuilder();
            for (int i = 0; digits.length() < count; i++) {
                digits.append(Math.floorMod(hash[i], 10));
            }
            return digits.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
