package dev.herald.gateway.repository;

import dev.herald.gateway.model.Workspace;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class WorkspaceRepository implements PanacheRepositoryBase<Workspace, String> {}
