/* test-flame-diff.c — the differential flame graph, under Xvfb
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: issue 8 ("Differential views"). Two runs of 100 samples each:
 * layout_text went from 20 % to 40 % of the run, decode_image from 40 %
 * to 20 %, read_config stayed at 30 %; render_page calls layout_text, so
 * its own share is unchanged and its total share grew. The frames are
 * read back as pixels of the widget's own rendering.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-flame-graph-private.h"

#define WINDOW_WIDTH  1000
#define WINDOW_HEIGHT 320

typedef struct
{
  const char *stack;
  guint64     weight;
} Sample;

static const Sample run_a[] = {
  { "main", 5 },
  { "main/render_page", 5 },
  { "main/render_page/layout_text", 20 },
  { "main/decode_image", 40 },
  { "main/read_config", 30 },
};

static const Sample run_b[] = {
  { "main", 5 },
  { "main/render_page", 5 },
  { "main/render_page/layout_text", 40 },
  { "main/decode_image", 20 },
  { "main/read_config", 30 },
};

static PsCallTree *
tree_of_samples (const Sample *samples,
                 guint         n_samples)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_SAMPLES);

  for (guint i = 0; i < n_samples; i++)
    {
      g_auto(GStrv) frames = g_strsplit (samples[i].stack, "/", -1);
      guint depth = g_strv_length (frames);
      g_autofree guint32 *stack = g_new (guint32, depth);

      for (guint k = 0; k < depth; k++)
        stack[k] = ps_call_tree_builder_intern_function (builder, frames[k], NULL);
      ps_call_tree_builder_add_sample (builder, stack, depth, samples[i].weight, FALSE);
    }
  return ps_call_tree_builder_end (builder);
}

typedef struct
{
  GtkWidget      *window;
  PsFlameGraph   *flame_graph;
  PsCallTree     *a;
  PsCallTree     *b;
  PsCallTreeDiff *diff;
} FlameFixture;

static void
flame_setup (FlameFixture  *fixture,
             gconstpointer  data)
{
  fixture->a = tree_of_samples (run_a, G_N_ELEMENTS (run_a));
  fixture->b = tree_of_samples (run_b, G_N_ELEMENTS (run_b));
  fixture->diff = ps_call_tree_diff_new (fixture->a, fixture->b);

  fixture->flame_graph = PS_FLAME_GRAPH (ps_flame_graph_new ());
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), WINDOW_WIDTH, WINDOW_HEIGHT);
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->flame_graph));
  ps_flame_graph_set_tree (fixture->flame_graph, fixture->b);
  gtk_window_present (GTK_WINDOW (fixture->window));
  g_assert_true (iterate_until (widget_is_drawn, fixture->flame_graph));
}

static void
flame_teardown (FlameFixture  *fixture,
                gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate_for (50);
  g_clear_object (&fixture->diff);
  g_clear_object (&fixture->a);
  g_clear_object (&fixture->b);
}

/* The widget as it draws itself now, as straight RGBA */
typedef struct
{
  guchar *data;
  gsize   stride;
  int     width;
  int     height;
} Pixels;

static Pixels
render (FlameFixture *fixture)
{
  g_autoptr(GdkTexture) texture = NULL;
  Pixels pixels;

  /* Layout and state changes settle first */
  iterate_for (50);
  texture = render_widget (GTK_WIDGET (fixture->flame_graph));
  pixels.width = gdk_texture_get_width (texture);
  pixels.height = gdk_texture_get_height (texture);
  pixels.stride = pixels.width * 4;
  pixels.data = g_malloc (pixels.stride * pixels.height);
  gdk_texture_download (texture, pixels.data, pixels.stride);
  return pixels;
}

/* gdk_texture_download () gives cairo's premultiplied ARGB32 */
static void
pixel_at (const Pixels *pixels,
          double        x,
          double        y,
          double       *rgb)
{
  int px = (int) x, py = (int) y;
  guint32 pixel;
  double alpha;

  g_assert_cmpint (px, >=, 0);
  g_assert_cmpint (py, >=, 0);
  g_assert_cmpint (px, <, pixels->width);
  g_assert_cmpint (py, <, pixels->height);
  pixel = *(const guint32 *) (pixels->data + py * pixels->stride + px * 4);
  alpha = ((pixel >> 24) & 0xff) / 255.0;
  g_assert_cmpfloat (alpha, >, 0.99);
  rgb[0] = ((pixel >> 16) & 0xff) / 255.0;
  rgb[1] = ((pixel >> 8) & 0xff) / 255.0;
  rgb[2] = (pixel & 0xff) / 255.0;
}

typedef enum
{
  REDDISH,
  BLUISH,
  GREY,
} Hue;

static void
assert_hue (const double *rgb,
            Hue           hue,
            const char   *what)
{
  gboolean ok;

  switch (hue)
    {
    case REDDISH:
      ok = rgb[0] > rgb[2] + 0.15 && rgb[0] > rgb[1] + 0.1;
      break;
    case BLUISH:
      ok = rgb[2] > rgb[0] + 0.15 && rgb[2] > rgb[1] + 0.05;
      break;
    case GREY:
    default:
      ok = fabs (rgb[0] - rgb[1]) < 0.04 && fabs (rgb[1] - rgb[2]) < 0.04 && fabs (rgb[0] - rgb[2]) < 0.04;
      break;
    }
  if (!ok)
    g_error ("%s: expected %s, got rgb(%.2f, %.2f, %.2f)", what,
             hue == REDDISH ? "red" : hue == BLUISH ? "blue" : "grey", rgb[0], rgb[1], rgb[2]);
}

/* The colour of a frame (by path) in the rendering: near its right end,
 * clear of its label, and near its top, clear of the focus ring */
static void
frame_pixel (FlameFixture  *fixture,
             const Pixels  *pixels,
             const char   **path,
             double        *rgb)
{
  int width = gtk_widget_get_width (GTK_WIDGET (fixture->flame_graph));
  int top = _ps_flame_graph_get_draw_top (fixture->flame_graph);
  double x, y, frame_width, frame_height;

  g_assert_true (_ps_flame_graph_get_frame (fixture->flame_graph, width, path, &x, &y, &frame_width, &frame_height));
  g_assert_cmpfloat (frame_width, >, 20);
  pixel_at (pixels, x + frame_width - 4, top + y + 3, rgb);
}

static const char *path_main[] = { "main", NULL };
static const char *path_render[] = { "main", "render_page", NULL };
static const char *path_slower[] = { "main", "render_page", "layout_text", NULL };
static const char *path_faster[] = { "main", "decode_image", NULL };
static const char *path_same[] = { "main", "read_config", NULL };

static void
save_screenshot (FlameFixture *fixture,
                 const char   *name)
{
  const char *dir = g_getenv ("PERFSCOPE_TEST_SCREENSHOTS");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *file_name = NULL;
  g_autofree char *path = NULL;
  int width = gtk_widget_get_width (fixture->window);
  int height = gtk_widget_get_height (fixture->window);

  if (dir == NULL)
    return;
  g_mkdir_with_parents (dir, 0755);
  iterate_for (100);
  /* The whole window, with its background */
  paintable = gtk_widget_paintable_new (fixture->window);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (fixture->window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  file_name = g_strconcat (name, ".png", NULL);
  path = g_build_filename (dir, file_name, NULL);
  gdk_texture_save_to_png (texture, path);
}

/* Slower is red, faster blue, unchanged grey; the legend is drawn */
static void
test_colours (FlameFixture  *fixture,
              gconstpointer  data)
{
  int width = gtk_widget_get_width (GTK_WIDGET (fixture->flame_graph));
  int top;
  double normal_same[3], rgb[3];
  double bar_x, bar_y, bar_width, bar_height, scale;
  double frame_x, frame_y, frame_width, frame_height;
  Pixels pixels;

  /* Without a baseline: no legend, the frames start at the top */
  g_assert_false (_ps_flame_graph_get_legend_bar (fixture->flame_graph, width, &bar_x, &bar_y, &bar_width, &bar_height, &scale));
  g_assert_true (_ps_flame_graph_get_frame (fixture->flame_graph, width, path_main, &frame_x, &frame_y, &frame_width, &frame_height));
  g_assert_cmpfloat (frame_y, ==, 20);
  pixels = render (fixture);
  frame_pixel (fixture, &pixels, path_same, normal_same);
  g_free (pixels.data);

  ps_flame_graph_set_baseline (fixture->flame_graph, fixture->diff);
  g_assert_true (ps_flame_graph_get_baseline (fixture->flame_graph) == fixture->diff);
  g_assert_true (ps_flame_graph_get_tree (fixture->flame_graph) == fixture->b);
  g_assert_cmpint (ps_flame_graph_get_diff_by (fixture->flame_graph), ==, PS_FLAME_GRAPH_DIFF_BY_SELF);
  g_assert_cmpfloat (ps_flame_graph_get_diff_threshold (fixture->flame_graph), ==, 1.0);

  pixels = render (fixture);
  top = _ps_flame_graph_get_draw_top (fixture->flame_graph);
  frame_pixel (fixture, &pixels, path_slower, rgb);
  assert_hue (rgb, REDDISH, "layout_text (+20 pp)");
  frame_pixel (fixture, &pixels, path_faster, rgb);
  assert_hue (rgb, BLUISH, "decode_image (−20 pp)");
  frame_pixel (fixture, &pixels, path_same, rgb);
  assert_hue (rgb, GREY, "read_config (0 pp)");
  /* render_page's own share did not change */
  frame_pixel (fixture, &pixels, path_render, rgb);
  assert_hue (rgb, GREY, "render_page by own time");

  /* The frames moved below the legend, whose bar goes from blue through
   * grey to red, ±20 pp (the largest change) at its ends */
  g_assert_true (_ps_flame_graph_get_frame (fixture->flame_graph, width, path_main, &frame_x, &frame_y, &frame_width, &frame_height));
  g_assert_cmpfloat (frame_y, >, 20);
  g_assert_true (_ps_flame_graph_get_legend_bar (fixture->flame_graph, width, &bar_x, &bar_y, &bar_width, &bar_height, &scale));
  g_assert_cmpfloat (scale, ==, 20);
  g_assert_cmpfloat (bar_y + bar_height, <, frame_y);
  pixel_at (&pixels, bar_x + 2, top + bar_y + bar_height / 2, rgb);
  assert_hue (rgb, BLUISH, "legend, left end");
  pixel_at (&pixels, bar_x + bar_width / 2, top + bar_y + bar_height / 2, rgb);
  assert_hue (rgb, GREY, "legend, middle");
  pixel_at (&pixels, bar_x + bar_width - 3, top + bar_y + bar_height / 2, rgb);
  assert_hue (rgb, REDDISH, "legend, right end");
  g_free (pixels.data);

  save_screenshot (fixture, "flame-diff-self");

  /* A threshold above the changes greys everything */
  ps_flame_graph_set_diff_threshold (fixture->flame_graph, 25);
  pixels = render (fixture);
  frame_pixel (fixture, &pixels, path_slower, rgb);
  assert_hue (rgb, GREY, "layout_text within a 25 pp threshold");
  frame_pixel (fixture, &pixels, path_faster, rgb);
  assert_hue (rgb, GREY, "decode_image within a 25 pp threshold");
  g_free (pixels.data);
  ps_flame_graph_set_diff_threshold (fixture->flame_graph, 1);

  /* Without the baseline, the colours and the layout are as before */
  ps_flame_graph_set_baseline (fixture->flame_graph, NULL);
  g_assert_null (ps_flame_graph_get_baseline (fixture->flame_graph));
  g_assert_true (ps_flame_graph_get_tree (fixture->flame_graph) == fixture->b);
  g_assert_false (_ps_flame_graph_get_legend_bar (fixture->flame_graph, width, &bar_x, &bar_y, &bar_width, &bar_height, &scale));
  g_assert_true (_ps_flame_graph_get_frame (fixture->flame_graph, width, path_main, &frame_x, &frame_y, &frame_width, &frame_height));
  g_assert_cmpfloat (frame_y, ==, 20);
  pixels = render (fixture);
  frame_pixel (fixture, &pixels, path_same, rgb);
  g_assert_cmpfloat (rgb[0], ==, normal_same[0]);
  g_assert_cmpfloat (rgb[1], ==, normal_same[1]);
  g_assert_cmpfloat (rgb[2], ==, normal_same[2]);
  frame_pixel (fixture, &pixels, path_faster, rgb);
  /* Module colours are warm: no blue frames */
  g_assert_cmpfloat (rgb[0], >=, rgb[2]);
  g_free (pixels.data);
}

/* Own or total time: render_page's own share is the same, its total grew */
static void
test_self_or_total (FlameFixture  *fixture,
                    gconstpointer  data)
{
  double rgb[3];
  Pixels pixels;

  ps_flame_graph_set_baseline (fixture->flame_graph, fixture->diff);
  ps_flame_graph_set_diff_by (fixture->flame_graph, PS_FLAME_GRAPH_DIFF_BY_TOTAL);
  g_assert_cmpint (ps_flame_graph_get_diff_by (fixture->flame_graph), ==, PS_FLAME_GRAPH_DIFF_BY_TOTAL);

  pixels = render (fixture);
  frame_pixel (fixture, &pixels, path_render, rgb);
  assert_hue (rgb, REDDISH, "render_page by total time (+20 pp)");
  frame_pixel (fixture, &pixels, path_slower, rgb);
  assert_hue (rgb, REDDISH, "layout_text by total time");
  frame_pixel (fixture, &pixels, path_faster, rgb);
  assert_hue (rgb, BLUISH, "decode_image by total time");
  /* main is the whole of both runs */
  frame_pixel (fixture, &pixels, path_main, rgb);
  assert_hue (rgb, GREY, "main by total time");
  g_free (pixels.data);

  save_screenshot (fixture, "flame-diff-total");

  ps_flame_graph_set_diff_by (fixture->flame_graph, PS_FLAME_GRAPH_DIFF_BY_SELF);
  pixels = render (fixture);
  frame_pixel (fixture, &pixels, path_render, rgb);
  assert_hue (rgb, GREY, "render_page by own time");
  g_free (pixels.data);

  /* Through the property, as a settings binding would */
  g_object_set (fixture->flame_graph, "diff-by", PS_FLAME_GRAPH_DIFF_BY_TOTAL, NULL);
  pixels = render (fixture);
  frame_pixel (fixture, &pixels, path_render, rgb);
  assert_hue (rgb, REDDISH, "render_page by total time, set as a property");
  g_free (pixels.data);
}

/* The read-out gives both shares and the change */
static void
test_tooltip (FlameFixture  *fixture,
              gconstpointer  data)
{
  g_autofree char *plain = NULL;
  g_autofree char *slower = NULL;
  g_autofree char *faster = NULL;
  g_autofree char *render_page = NULL;

  plain = _ps_flame_graph_get_tooltip (fixture->flame_graph, path_slower);
  g_assert_null (strstr (plain, " pp"));

  ps_flame_graph_set_baseline_tree (fixture->flame_graph, fixture->a);
  g_assert_nonnull (ps_flame_graph_get_baseline (fixture->flame_graph));
  g_assert_true (ps_call_tree_diff_get_a (ps_flame_graph_get_baseline (fixture->flame_graph)) == fixture->a);

  slower = _ps_flame_graph_get_tooltip (fixture->flame_graph, path_slower);
  g_assert_nonnull (strstr (slower, "Exclusive: A 20.00 % → B 40.00 %, +20.00 pp (×2.00)"));
  g_assert_nonnull (strstr (slower, "Inclusive: A 20.00 % → B 40.00 %, +20.00 pp (×2.00)"));

  faster = _ps_flame_graph_get_tooltip (fixture->flame_graph, path_faster);
  g_assert_nonnull (strstr (faster, "A 40.00 % → B 20.00 %, −20.00 pp (×0.50)"));

  render_page = _ps_flame_graph_get_tooltip (fixture->flame_graph, path_render);
  g_assert_nonnull (strstr (render_page, "Exclusive: A 5.00 % → B 5.00 %, +0.00 pp (×1.00)"));
  g_assert_nonnull (strstr (render_page, "Inclusive: A 25.00 % → B 45.00 %, +20.00 pp (×1.80)"));

  /* Valid markup, as GtkTooltip needs */
  g_assert_true (pango_parse_markup (slower, -1, 0, NULL, NULL, NULL, NULL));
}

/* A transform keeps each node's baseline: merging render_page moves its
 * own time and A's to main, and layout_text up beside decode_image */
static void
test_transform (FlameFixture  *fixture,
                gconstpointer  data)
{
  static const char *merged_slower[] = { "main", "layout_text", NULL };
  guint32 render_page = ps_call_tree_lookup_function (fixture->b, "render_page");
  g_autofree char *slower = NULL;
  g_autofree char *main_tip = NULL;
  g_autofree char *faster = NULL;

  ps_flame_graph_set_baseline_tree (fixture->flame_graph, fixture->a);
  ps_flame_graph_add_transform (fixture->flame_graph, PS_FLAME_TRANSFORM_MERGE, render_page);

  slower = _ps_flame_graph_get_tooltip (fixture->flame_graph, merged_slower);
  g_assert_nonnull (strstr (slower, "Exclusive: A 20.00 % → B 40.00 %, +20.00 pp (×2.00)"));
  g_assert_nonnull (strstr (slower, "Inclusive: A 20.00 % → B 40.00 %, +20.00 pp (×2.00)"));
  main_tip = _ps_flame_graph_get_tooltip (fixture->flame_graph, path_main);
  g_assert_nonnull (strstr (main_tip, "Exclusive: A 10.00 % → B 10.00 %, +0.00 pp (×1.00)"));
  g_assert_nonnull (strstr (main_tip, "Inclusive: A 100.00 % → B 100.00 %, +0.00 pp (×1.00)"));
  faster = _ps_flame_graph_get_tooltip (fixture->flame_graph, path_faster);
  g_assert_nonnull (strstr (faster, "A 40.00 % → B 20.00 %, −20.00 pp (×0.50)"));
}

/* A new tree drops a baseline that is not its own */
static void
test_new_tree (FlameFixture  *fixture,
               gconstpointer  data)
{
  ps_flame_graph_set_baseline (fixture->flame_graph, fixture->diff);
  ps_flame_graph_set_tree (fixture->flame_graph, fixture->b);
  g_assert_nonnull (ps_flame_graph_get_baseline (fixture->flame_graph));
  ps_flame_graph_set_tree (fixture->flame_graph, fixture->a);
  g_assert_null (ps_flame_graph_get_baseline (fixture->flame_graph));

  /* A baseline brings its B */
  ps_flame_graph_set_baseline (fixture->flame_graph, fixture->diff);
  g_assert_true (ps_flame_graph_get_tree (fixture->flame_graph) == fixture->b);
}

#define ADD_FLAME_TEST(path, func) \
  g_test_add (path, FlameFixture, NULL, flame_setup, func, flame_teardown)

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_FLAME_TEST ("/flame-diff/colours", test_colours);
  ADD_FLAME_TEST ("/flame-diff/self-or-total", test_self_or_total);
  ADD_FLAME_TEST ("/flame-diff/tooltip", test_tooltip);
  ADD_FLAME_TEST ("/flame-diff/transform", test_transform);
  ADD_FLAME_TEST ("/flame-diff/new-tree", test_new_tree);

  return gui_test_run ();
}
