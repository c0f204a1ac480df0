package dev.herald.accounts.repository;

import dev.herald.accounts.model.BrandingEntity;
import dev.herald.accounts.model.LogoEntity;
import dev.herald.common.auth.Mode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * Connect-page brandings, one per workspace and mode, and the logos they name (by SHA-256, shared by brandings that
 * chose the same image). Logos are written and dropped in the caller's transaction.
 */
@ApplicationScoped
public class BrandingRepository implements PanacheRepositoryBase<BrandingEntity, BrandingEntity.Key> {

    /** The branding of this workspace and mode, or null: the key itself scopes the read. */
    public Uni<BrandingEntity> findInTenant(String workspaceId, Mode mode) {
        return findById(new BrandingEntity.Key(workspaceId, mode.wireName()));
    }

    /** Keeps a fetched logo; the same image kept already (by another branding, or an earlier PUT) stays as it is. */
    public Uni<Void> storeLogo(String sha256, String contentType, byte[] bytes, Instant now) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("""
                        insert into connect_logos (sha256, content_type, bytes, created_at) values (?1, ?2, ?3, ?4)
                        on conflict (sha256) do nothing""")
                        .setParameter(1, sha256)
                        .setParameter(2, contentType)
                        .setParameter(3, bytes)
                        .setParameter(4, now)
                        .executeUpdate())
                .replaceWithVoid();
    }

    /** Deletes the logo unless a branding still names it (after the change that stopped naming it was flushed). */
    public Uni<Void> dropUnusedLogo(String sha256) {
        if (sha256 == null) {
            return Uni.createFrom().voidItem();
        }
        return Panache.getSession()
                .flatMap(session -> session.flush()
                        .chain(() -> session.createNativeQuery("""
                                delete from connect_logos where sha256 = ?1
                                and not exists (select 1 from connect_brandings where logo_sha256 = ?1)""")
                                .setParameter(1, sha256)
                                .executeUpdate()))
                .replaceWithVoid();
    }

    /** A kept logo by its hash, or null. */
    public Uni<LogoEntity> findLogo(String sha256) {
        return Panache.getSession().flatMap(session -> session.find(LogoEntity.class, sha256));
    }
}
