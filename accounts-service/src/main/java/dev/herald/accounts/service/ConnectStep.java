package dev.herald.accounts.service;

import dev.herald.accounts.model.ConnectSessionEntity;
import java.util.List;

/**
 * One authorization on a hosted page: the session afterwards and the accounts this step connected, in order. A
 * re-authorized account is among them although the session listed it already, so the page names the account the
 * end user just authorized, not the session's most recent one.
 */
public record ConnectStep(ConnectSessionEntity session, List<String> accountIds) {}
