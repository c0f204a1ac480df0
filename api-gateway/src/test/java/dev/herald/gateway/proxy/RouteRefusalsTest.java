package dev.herald.gateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RouteRefusalsTest {
    @Test
    void singleValuedParametersAreNotRepeated() {
        assertThat(RouteRefusals.repeatedQueryParameter(null)).isEmpty();
        assertThat(RouteRefusals.repeatedQueryParameter("")).isEmpty();
        assertThat(RouteRefusals.repeatedQueryParameter("limit=10&cursor=abc&&"))
                .isEmpty();
    }

    @Test
    void aParameterGivenTwiceIsFoundAsTheServicesReadIt() {
        assertThat(RouteRefusals.repeatedQueryParameter("limit=1&LIMIT=2")).contains("LIMIT");
        assertThat(RouteRefusals.repeatedQueryParameter("limit=1;limit=2")).contains("limit");
        assertThat(RouteRefusals.repeatedQueryParameter("%6Cimit=1&limit=2")).contains("limit");
    }

    @Test
    void aMalformedNameIsComparedAsSent() {
        assertThat(RouteRefusals.repeatedQueryParameter("%zz=1&%zz=2")).contains("%zz");
        assertThat(RouteRefusals.repeatedQueryParameter("%zz=1&zz=2")).isEmpty();
    }
}
