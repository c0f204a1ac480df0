package dev.herald.profiles.model;

/** What can keep a profile from being deleted (spec: DELETE /profiles/{id}). */
public enum ProfileHoldKind {
    ACCOUNTS("accounts"),
    PENDING_POSTS("pending_posts"),
    MEDIA("media");

    private final String column;

    ProfileHoldKind(String column) {
        this.column = column;
    }

    public String column() {
        return column;
    }

    public static java.util.Optional<ProfileHoldKind> fromColumn(String value) {
        for (ProfileHoldKind kind : values()) {
            if (kind.column.equals(value)) {
                return java.util.Optional.of(kind);
            }
        }
        return java.util.Optional.empty();
    }
}
