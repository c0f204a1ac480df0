import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The results' plot, drawn with JFreeChart in a headless JVM: per mode, the lag distribution (the share of posts
 * published within x, so the targets read off directly at their marker lines) and each post's lag against its order
 * (the burst: acceptance order; the steady rate: its scheduled time), one PNG with a row per mode.
 */
final class LagPlot {
    static final int PANEL_WIDTH = 800;
    static final int PANEL_HEIGHT = 460;
    /** At most this many points per CDF line: more cost time and draw the same curve. */
    static final int CDF_POINTS = 2_000;

    record Target(String label, double seconds) {}

    /** One row of the plot: a mode's lags, what its x axis counts, its targets. */
    record Row(String title, LagSummary lags, boolean byTime, Instant origin, List<Target> targets) {}

    private LagPlot() {}

    static void write(Path png, List<Row> rows) throws IOException {
        BufferedImage image = new BufferedImage(2 * PANEL_WIDTH, rows.size() * PANEL_HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            cdf(row).draw(g, new Rectangle2D.Double(0, i * PANEL_HEIGHT, PANEL_WIDTH, PANEL_HEIGHT));
            scatter(row).draw(g, new Rectangle2D.Double(PANEL_WIDTH, i * PANEL_HEIGHT, PANEL_WIDTH, PANEL_HEIGHT));
        }
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }

    /** Share of the mode's posts published within x seconds; a post not published keeps the curve under 100%. */
    static JFreeChart cdf(Row row) {
        double[] lags = row.lags().lags;
        XYSeries series = new XYSeries("published within x", false, true);
        int finite = 0;
        while (finite < lags.length && !Double.isInfinite(lags[finite])) {
            finite++;
        }
        int step = Math.max(1, finite / CDF_POINTS);
        for (int i = 0; i < finite; i += step) {
            series.add(lags[i] / 1000, 100.0 * (i + 1) / lags.length, false);
        }
        if (finite > 0) {
            series.add(lags[finite - 1] / 1000, 100.0 * finite / lags.length, false);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(row.title() + ": lag distribution", "lag: published_at - scheduled_at (s)",
                "posts published within the lag (%)", new XYSeriesCollection(series));
        XYPlot plot = chart.getXYPlot();
        plot.getRangeAxis().setRange(0, 100.5);
        for (Target t : row.targets()) {
            plot.addDomainMarker(marker(t));
        }
        for (double share : new double[] {50, 99}) {
            ValueMarker m = new ValueMarker(share, Color.GRAY, new BasicStroke(0.8f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1,
                    new float[] {2, 3}, 0));
            m.setLabel(fmt(share) + "%");
            m.setLabelAnchor(RectangleAnchor.BOTTOM_RIGHT);
            m.setLabelTextAnchor(TextAnchor.TOP_RIGHT);
            plot.addRangeMarker(m);
        }
        showTargets(plot.getDomainAxis(), row, finite == 0 ? 0 : lags[finite - 1] / 1000);
        for (Object m : plot.getDomainMarkers(Layer.FOREGROUND)) {
            // a label beside its line, on the side with room for it
            ValueMarker v = (ValueMarker) m;
            boolean leftHalf = v.getValue() < plot.getDomainAxis().getUpperBound() / 2;
            v.setLabelAnchor(leftHalf ? RectangleAnchor.TOP_RIGHT : RectangleAnchor.TOP_LEFT);
            v.setLabelTextAnchor(leftHalf ? TextAnchor.TOP_LEFT : TextAnchor.TOP_RIGHT);
        }
        finish(chart, row);
        return chart;
    }

    /** Each post's lag against its acceptance order (burst) or its scheduled time (steady). */
    static JFreeChart scatter(Row row) {
        XYSeries series = new XYSeries("post", false, true);
        for (Outcomes.Outcome o : row.lags().outcomes) {
            double lag = o.lagMillis();
            if (!Double.isInfinite(lag)) {
                double x = row.byTime() ? Duration.between(row.origin(), o.scheduledAt()).toMillis() / 1000.0 : o.order();
                series.add(x, lag / 1000, false);
            }
        }
        JFreeChart chart = ChartFactory.createScatterPlot(row.title() + ": lag of each post",
                row.byTime() ? "scheduled time (s after the first post's)" : "acceptance order (post n of the burst)", "lag (s)",
                new XYSeriesCollection(series));
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer dots = new XYLineAndShapeRenderer(false, true);
        dots.setSeriesShape(0, new Rectangle2D.Double(-1, -1, 2, 2));
        dots.setSeriesPaint(0, new Color(31, 119, 180));
        plot.setRenderer(dots);
        for (Target t : row.targets()) {
            ValueMarker m = marker(t);
            m.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
            m.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
            plot.addRangeMarker(m);
        }
        showTargets(plot.getRangeAxis(), row, series.getItemCount() == 0 ? 0 : series.getMaxY());
        finish(chart, row);
        return chart;
    }

    /** From 0 to past the largest of the data and the targets, so every target line shows. */
    static void showTargets(ValueAxis axis, Row row, double dataMax) {
        double top = Math.max(dataMax, row.targets().stream().mapToDouble(Target::seconds).max().orElse(0));
        axis.setRange(0, top * 1.06);
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    static ValueMarker marker(Target t) {
        ValueMarker m = new ValueMarker(t.seconds(), new Color(214, 39, 40), new BasicStroke(1.2f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 1, new float[] {6, 4}, 0));
        m.setLabel(t.label());
        m.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        m.setLabelPaint(new Color(214, 39, 40));
        m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
        m.setLabelTextAnchor(TextAnchor.TOP_RIGHT);
        return m;
    }

    static void finish(JFreeChart chart, Row row) {
        chart.removeLegend();
        chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        LagSummary s = row.lags();
        List<String> parts = new ArrayList<>();
        parts.add(s.lags.length + " posts: " + s.published + " published, " + s.failed + " failed, " + s.notFinal
                + " not final at the deadline" + (s.missing > 0 ? ", " + s.missing + " not accepted or not listed" : ""));
        parts.add(String.format(Locale.ROOT, "p50 %s, p99 %s, max %s", LagSummary.seconds(s.pct(0.5), 2),
                LagSummary.seconds(s.pct(0.99), 2), LagSummary.seconds(s.max(), 2)));
        chart.addSubtitle(new TextTitle(String.join("; ", parts), new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
        chart.getXYPlot().setBackgroundPaint(new Color(248, 248, 248));
        chart.getXYPlot().setDomainGridlinePaint(Color.LIGHT_GRAY);
        chart.getXYPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
    }
}
