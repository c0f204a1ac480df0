package dev.herald.gateway.repository;

import dev.herald.gateway.model.SignInLink;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class SignInLinkRepository implements PanacheRepositoryBase<SignInLink, String> {}
