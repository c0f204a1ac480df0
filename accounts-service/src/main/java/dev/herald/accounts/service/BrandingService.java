package dev.herald.accounts.service;

import dev.herald.accounts.config.ConnectConfig;
import dev.herald.accounts.model.BrandingEntity;
import dev.herald.accounts.model.LogoEntity;
import dev.herald.accounts.repository.BrandingRepository;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Branding;
import dev.herald.common.wire.DeletedResource;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Objects;

/**
 * Branding of the hosted connect page per workspace and mode ({@code /branding}). A PUT replaces the whole branding;
 * its logo is fetched there and then ({@link LogoFetcher}), before anything is written, so a logo that cannot be used
 * leaves the branding as it was. Every read is by the caller's workspace and mode: one tenant's branding never shows
 * on another's page.
 */
@ApplicationScoped
public class BrandingService {
    /** Where the page's logos are served, below the public URL (the gateway routes {@code /connect/**} here). */
    public static final String LOGO_PATH = "/connect/logos/";

    private final BrandingRepository brandings;
    private final LogoFetcher logos;
    private final String publicBase;
    private final Clock clock;

    public BrandingService(BrandingRepository brandings, LogoFetcher logos, ConnectConfig config, Clock clock) {
        this.brandings = brandings;
        this.logos = logos;
        this.publicBase = config.publicUrl().toString().replaceAll("/+$", "");
        this.clock = clock;
    }

    /** The branding; {@code 404 not_found} when none is set. */
    @WithSession
    public Uni<Branding> get(String workspaceId, Mode mode) {
        return brandings.findInTenant(workspaceId, mode).map(row -> {
            if (row == null) {
                throw notSet(mode);
            }
            return toWire(row);
        });
    }

    /** The branding for a page of this workspace and mode, or null (Herald's neutral look). */
    @WithSession
    public Uni<BrandingEntity> forPage(String workspaceId, Mode mode) {
        return brandings.findInTenant(workspaceId, mode);
    }

    public Uni<Branding> replace(String workspaceId, Mode mode, BrandingRequest request) {
        Uni<LogoImage> logo = request.logoUrl() == null ? Uni.createFrom().nullItem() : logos.fetch(request.logoUrl());
        return logo.flatMap(image -> Panache.withTransaction(() -> store(workspaceId, mode, request, image)));
    }

    private Uni<Branding> store(String workspaceId, Mode mode, BrandingRequest request, LogoImage image) {
        return brandings.findInTenant(workspaceId, mode).flatMap(existing -> {
            BrandingEntity row = existing != null ? existing : new BrandingEntity();
            String previousLogo = row.logoSha256;
            row.workspaceId = workspaceId;
            row.mode = mode.wireName();
            row.displayName = request.displayName();
            row.accentColor = request.accentColor();
            row.supportUrl = request.supportUrl();
            row.privacyUrl = request.privacyUrl();
            row.logoUrl = image == null ? null : request.logoUrl();
            row.logoSha256 = image == null ? null : image.sha256();
            row.updatedAt = Timestamps.now(clock);
            Uni<Void> kept = image == null
                    ? Uni.createFrom().voidItem()
                    : brandings.storeLogo(image.sha256(), image.contentType(), image.bytes(), row.updatedAt);
            return kept.chain(() -> existing != null ? Uni.createFrom().item(row) : brandings.persist(row))
                    .chain(saved -> Objects.equals(previousLogo, saved.logoSha256)
                            ? Uni.createFrom().item(saved)
                            : brandings.dropUnusedLogo(previousLogo).replaceWith(saved))
                    .map(this::toWire);
        });
    }

    /** Back to Herald's neutral look; {@code 404 not_found} when none is set. */
    @WithTransaction
    public Uni<DeletedResource> delete(String workspaceId, Mode mode) {
        return brandings.findInTenant(workspaceId, mode).flatMap(row -> {
            if (row == null) {
                return Uni.createFrom().failure(notSet(mode));
            }
            String logo = row.logoSha256;
            return brandings
                    .delete(row)
                    .chain(() -> brandings.dropUnusedLogo(logo))
                    .replaceWith(DeletedResource.of(workspaceId, "branding"));
        });
    }

    /** A kept logo by its hash, or null. */
    @WithSession
    public Uni<LogoEntity> logo(String sha256) {
        return brandings.findLogo(sha256);
    }

    /** The page's URL of a logo, below {@link #LOGO_PATH}; relative, as the page is served from the same origin. */
    public static String logoPath(String sha256) {
        return sha256 == null ? null : LOGO_PATH + sha256;
    }

    private static ApiException notSet(Mode mode) {
        return new ApiException(
                ErrorCode.NOT_FOUND,
                "No branding is set in " + mode.wireName() + " mode: the page looks like Herald's.");
    }

    private Branding toWire(BrandingEntity row) {
        return new Branding(
                row.displayName,
                row.logoUrl,
                row.logoSha256 == null ? null : publicBase + logoPath(row.logoSha256),
                row.accentColor,
                row.supportUrl,
                row.privacyUrl,
                row.updatedAt);
    }
}
