package dev.herald.delivery.provider.linkedin;

/**
 * A post's text as LinkedIn's {@code commentary} field takes it: "little text format", where
 * {@code | { } @ [ ] ( ) < > # \ * _ ~} are markup and must be backslash-escaped to appear as typed (unescaped, a
 * parenthesis or an at sign can cut the post short or turn text into a broken mention).
 */
public final class LinkedInCommentary {
    private static final String RESERVED = "|{}@[]()<>#\\*_~";

    private LinkedInCommentary() {}

    public static String of(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (RESERVED.indexOf(c) >= 0) {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }
}
