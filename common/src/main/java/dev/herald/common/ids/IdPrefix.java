package dev.herald.common.ids;

import java.util.regex.Pattern;

/** The kinds of Herald ids: a prefix, an underscore and 24 lowercase hex characters (96 random bits). */
public enum IdPrefix {
    WORKSPACE("ws"),
    API_KEY("key"),
    OAUTH_CLIENT("cli"),
    PROFILE("prf"),
    ACCOUNT("acc"),
    POST("pst"),
    POST_SERIES("ser"),
    CONNECT_SESSION("cs"),
    WEBHOOK_ENDPOINT("whe"),
    EVENT("evt"),
    COMMENT("cmt"),
    DELIVERY("dlv"),
    REQUEST("req"),
    MEMBER("mem");

    private final String prefix;
    private final Pattern pattern;

    IdPrefix(String prefix) {
        this.prefix = prefix;
        this.pattern = Pattern.compile("^" + prefix + "_[a-f0-9]{24}$");
    }

    public String prefix() {
        return prefix;
    }

    public boolean matches(String id) {
        return id != null && pattern.matcher(id).matches();
    }
}
