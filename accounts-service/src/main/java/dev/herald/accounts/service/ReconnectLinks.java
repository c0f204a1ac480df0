package dev.herald.accounts.service;

import dev.herald.accounts.config.ConnectConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.common.auth.Mode;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * Reconnect links: {@code <public url>/connect/reconnect/<token>}, a hosted page that reconnects exactly one account
 * (same id). The token is signed, not stored ({@link ConnectBrowserBinding#signed}): any replica can issue one at the
 * moment an event or a refusal needs it, and a database leak hands out none. Opening it makes a connect session bound
 * to the account (browser-bound and short-lived like any other), so the link itself can travel in webhook bodies and
 * be forwarded to the account's owner as it is.
 */
@ApplicationScoped
public class ReconnectLinks {
    /** How long a link works. */
    public static final Duration VALIDITY = Duration.ofDays(7);

    private static final String PURPOSE = "reconnect";
    /** Far more than a genuine token's length (about 150 characters); a longer one is not even verified. */
    private static final int MAX_TOKEN_LENGTH = 512;

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder BASE64URL_DECODER = Base64.getUrlDecoder();

    private final ConnectBrowserBinding signatures;
    private final ConnectConfig config;

    public ReconnectLinks(ConnectBrowserBinding signatures, ConnectConfig config) {
        this.signatures = signatures;
        this.config = config;
    }

    /** A link, and what it is bound to. */
    public record Link(String workspaceId, Mode mode, String accountId, Instant expiresAt, String url) {}

    /** A new link for the account, valid {@link #VALIDITY} from {@code now}. */
    public Link issue(AccountEntity account, Instant now) {
        Instant expiresAt = now.plus(VALIDITY);
        String payload = BASE64URL.encodeToString(String.join(
                        "|", account.workspaceId, account.mode, account.id, Long.toString(expiresAt.getEpochSecond()))
                .getBytes(StandardCharsets.UTF_8));
        String url = config.publicUrl().toString().replaceAll("/+$", "") + "/connect/reconnect/"
                + signatures.signed(PURPOSE, payload);
        return new Link(account.workspaceId, Mode.fromWire(account.mode).orElseThrow(), account.id, expiresAt, url);
    }

    /**
     * What a token from {@link #issue} is bound to. Fails with {@link ConnectRefusal} {@code EXPIRED} (410) for a
     * genuine link past its time, and {@code UNKNOWN_LINK} (404) for anything this server did not sign for this
     * purpose: a tampered token, another signed value (a cookie, an OAuth state), a malformed payload.
     */
    public Link open(String token, Instant now) {
        if (token == null || token.length() > MAX_TOKEN_LENGTH) {
            throw new ConnectRefusal(ConnectRefusal.Reason.UNKNOWN_LINK);
        }
        Link link = signatures
                .verified(PURPOSE, token)
                .flatMap(ReconnectLinks::parse)
                .orElseThrow(() -> new ConnectRefusal(ConnectRefusal.Reason.UNKNOWN_LINK));
        if (!now.isBefore(link.expiresAt())) {
            throw new ConnectRefusal(ConnectRefusal.Reason.EXPIRED);
        }
        return link;
    }

    private static Optional<Link> parse(String payload) {
        String[] parts;
        try {
            parts = new String(BASE64URL_DECODER.decode(payload), StandardCharsets.UTF_8).split("\\|");
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (parts.length != 4) {
            return Optional.empty();
        }
        Optional<Mode> mode = Mode.fromWire(parts[1]);
        try {
            Instant expiresAt = Instant.ofEpochSecond(Long.parseLong(parts[3]));
            return mode.map(known -> new Link(parts[0], known, parts[2], expiresAt, null));
        } catch (NumberFormatException | DateTimeException e) {
            return Optional.empty();
        }
    }
}
