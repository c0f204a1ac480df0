-- The language a connect session's hosted page is shown in (issue 39): a BCP 47 tag whose language is one the page is
-- translated into, as POST /connect-sessions normalized it; null lets the browser's Accept-Language decide.
alter table connect_sessions add column locale text;
