package dev.herald.accounts.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The live platforms' OAuth clients and API hosts ({@code herald.providers.<platform>.*}). A platform without a
 * client id and secret is simply not offered live: its provider refuses with {@code provider_not_configured}
 * (local and test runs configure none). Every URL is configurable so tests point them at a local fake server
 * and a deployment can move to a newer API version without a release.
 */
@ConfigMapping(prefix = "herald.providers")
public interface ProvidersConfig {
    /** Deadline for one provider HTTP call, connection included. */
    @WithDefault("10s")
    Duration requestTimeout();

    @WithDefault("5s")
    Duration connectTimeout();

    TikTok tiktok();

    YouTube youtube();

    Facebook facebook();

    Instagram instagram();

    Pinterest pinterest();

    LinkedIn linkedin();

    /** What every platform's OAuth client has; each platform supplies its own defaults. */
    interface OAuthClient {
        /** Unset (or blank) means the platform is not offered live. */
        Optional<String> clientId();

        Optional<String> clientSecret();

        /** Where the user's browser is sent to authorize. */
        String authorizeUrl();

        List<String> scopes();
    }

    /** TikTok Login Kit for Web (v2) and the Content Posting API. {@code client-id} is TikTok's client key. */
    interface TikTok extends OAuthClient {
        @Override
        @WithDefault("https://www.tiktok.com/v2/auth/authorize/")
        String authorizeUrl();

        /** Token, revoke, user info and creator info all live on this host. */
        @WithDefault("https://open.tiktokapis.com")
        String apiUrl();

        /**
         * {@code user.info.stats} and {@code video.list}: the account's and its videos' numbers (a grant without them
         * answers analytics {@code reconnect_required}).
         */
        @Override
        @WithDefault("user.info.basic,user.info.profile,user.info.stats,video.list,video.publish,video.upload")
        List<String> scopes();
    }

    /** Google OAuth 2.0 for web server applications and the YouTube Data API v3. */
    interface YouTube extends OAuthClient {
        @Override
        @WithDefault("https://accounts.google.com/o/oauth2/v2/auth")
        String authorizeUrl();

        /** Hosts {@code /token} and {@code /revoke}. */
        @WithDefault("https://oauth2.googleapis.com")
        String oauthUrl();

        @WithDefault("https://www.googleapis.com")
        String apiUrl();

        @Override
        @WithDefault(
                "openid,https://www.googleapis.com/auth/youtube.upload,https://www.googleapis.com/auth/youtube.readonly,"
                        + "https://www.googleapis.com/auth/yt-analytics.readonly,https://www.googleapis.com/auth/youtube.force-ssl")
        List<String> scopes();
    }

    /** Facebook Login for Pages; the Graph API version is part of both URLs. */
    interface Facebook extends OAuthClient {
        @Override
        @WithDefault("https://www.facebook.com/v24.0/dialog/oauth")
        String authorizeUrl();

        @WithDefault("https://graph.facebook.com/v24.0")
        String apiUrl();

        @Override
        @WithDefault("pages_show_list,pages_read_engagement,pages_manage_posts,read_insights,pages_read_user_content,"
                + "pages_manage_engagement")
        List<String> scopes();
    }

    /** Instagram API with Instagram Login (professional accounts; no Facebook Page needed). */
    interface Instagram extends OAuthClient {
        @Override
        @WithDefault("https://www.instagram.com/oauth/authorize")
        String authorizeUrl();

        /** Hosts the code exchange ({@code /oauth/access_token}). */
        @WithDefault("https://api.instagram.com")
        String oauthUrl();

        /** Hosts the long-lived token exchange, its refresh and the versioned {@code /me}. */
        @WithDefault("https://graph.instagram.com")
        String apiUrl();

        @WithDefault("v24.0")
        String apiVersion();

        @Override
        @WithDefault("instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights,"
                + "instagram_business_manage_comments")
        List<String> scopes();
    }

    /** Pinterest API v5. Trial (sandbox) apps read from {@code sandbox-api-url}. */
    interface Pinterest extends OAuthClient {
        @Override
        @WithDefault("https://www.pinterest.com/oauth/")
        String authorizeUrl();

        @WithDefault("https://api.pinterest.com")
        String apiUrl();

        @WithDefault("https://api-sandbox.pinterest.com")
        String sandboxApiUrl();

        @Override
        @WithDefault("boards:read,boards:write,pins:read,pins:write,user_accounts:read")
        List<String> scopes();
    }

    /** LinkedIn OAuth 2.0 with OpenID Connect, and the versioned REST API for organizations. */
    interface LinkedIn extends OAuthClient {
        @Override
        @WithDefault("https://www.linkedin.com/oauth/v2/authorization")
        String authorizeUrl();

        /** Hosts {@code /accessToken} and {@code /revoke}. */
        @WithDefault("https://www.linkedin.com/oauth/v2")
        String oauthUrl();

        @WithDefault("https://api.linkedin.com")
        String apiUrl();

        /** The {@code LinkedIn-Version} (YYYYMM) sent to {@code /rest} endpoints; LinkedIn sunsets each after a year. */
        @WithDefault("202601")
        String apiVersion();

        @Override
        @WithDefault("openid,profile,w_member_social,r_organization_admin,w_organization_social,r_organization_social")
        List<String> scopes();
    }
}
