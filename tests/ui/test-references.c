/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-references.c — reference parameters in the editor
 * (docs/electrical.md, "References"): which components a reference may
 * name (those whose type has the variable it reads), and which components
 * a selection is linked to, both ways. */
#include <string.h>
#include "hyd-references.h"
#include "elec-test-types.h"

static HydCircuit *
circuit_with_switch (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("BRAMAH_EXAMPLES_DIR"), "cylinder-extend-retract.bramah", NULL);
  g_autoptr (GError) error = NULL;
  HydCircuit *circuit = hyd_circuit_load_from_file (path, &error);
  g_assert_no_error (error);
  HydCircuitComponent *comp = hyd_circuit_component_new ("S2", "test_elec_limit");
  json_object_set_string_member (comp->params, "cylinder", "C1");
  json_object_set_double_member (comp->params, "position", 0.2);
  g_ptr_array_add (circuit->components, comp);
  return circuit;
}

static void
test_has_variable (void)
{
  elec_test_types_register ();
  /* a state, twice (the second from the cache) */
  g_assert_true (hyd_type_has_variable (hyd_catalogue_lookup ("cylinder_double"), "x"));
  g_assert_true (hyd_type_has_variable (hyd_catalogue_lookup ("cylinder_double"), "x"));
  g_assert_false (hyd_type_has_variable (hyd_catalogue_lookup ("fixed_pump"), "x"));
  /* a discrete state */
  g_assert_true (hyd_type_has_variable (hyd_catalogue_lookup ("test_elec_coil"), "energised"));
  g_assert_false (hyd_type_has_variable (hyd_catalogue_lookup ("test_elec_coil"), "x"));
  /* the catalogue's coils: what a contact's relay and a valve's solenoids read */
  g_assert_true (hyd_type_has_variable (hyd_catalogue_lookup ("relay"), "contacts"));
  g_assert_true (hyd_type_has_variable (hyd_catalogue_lookup ("timer_relay"), "contacts"));
  g_assert_true (hyd_type_has_variable (hyd_catalogue_lookup ("counter"), "contacts"));
  g_assert_false (hyd_type_has_variable (hyd_catalogue_lookup ("lamp"), "contacts"));
  g_assert_true (hyd_type_has_variable (hyd_catalogue_lookup ("solenoid"), "energised"));
  g_assert_true (hyd_type_has_variable (hyd_catalogue_lookup ("relay"), "energised"));
  /* every type of the catalogue is asked without a circuit around it:
   * none may fail loudly (G_DEBUG=fatal-criticals) */
  guint n = 0;
  const HydComponentType *const *types = hyd_catalogue_list (&n);
  guint with_x = 0;
  for (guint i = 0; i < n; i++)
    with_x += hyd_type_has_variable (types[i], "x");
  g_assert_cmpuint (with_x, >, 0);
}

static void
test_candidates (void)
{
  elec_test_types_register ();
  g_autoptr (HydCircuit) circuit = circuit_with_switch ();
  const HydComponentType *limit = hyd_catalogue_lookup ("test_elec_limit");
  const HydParamInfo *cylinder = &limit->params[hyd_component_type_find_param (limit, "cylinder")];
  g_auto (GStrv) ids = hyd_reference_candidates (circuit, "S2", cylinder);
  /* the example's one component with a position "x" */
  g_assert_cmpuint (g_strv_length (ids), ==, 1);
  g_assert_cmpstr (ids[0], ==, "C1");
  const HydCircuitComponent *s2 = hyd_circuit_find_component (circuit, "S2");
  g_assert_cmpstr (hyd_reference_get (s2, cylinder), ==, "C1");
  /* a parameter that is no reference names nothing */
  g_assert_null (hyd_reference_get (s2, &limit->params[hyd_component_type_find_param (limit, "position")]));
}

static void
test_links (void)
{
  elec_test_types_register ();
  g_autoptr (HydCircuit) circuit = circuit_with_switch ();
  /* the cylinder shows its limit switch, the switch its cylinder */
  g_auto (GStrv) of_c1 = hyd_reference_links (circuit, "C1");
  g_assert_nonnull (of_c1);
  g_assert_cmpuint (g_strv_length (of_c1), ==, 1);
  g_assert_cmpstr (of_c1[0], ==, "S2");
  g_auto (GStrv) of_s2 = hyd_reference_links (circuit, "S2");
  g_assert_nonnull (of_s2);
  g_assert_cmpuint (g_strv_length (of_s2), ==, 1);
  g_assert_cmpstr (of_s2[0], ==, "C1");
  /* nothing names the pump, and it names nothing */
  g_assert_null (hyd_reference_links (circuit, "PU1"));
  g_assert_null (hyd_reference_links (circuit, "nobody"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/references/has-variable", test_has_variable);
  g_test_add_func ("/ui/references/candidates", test_candidates);
  g_test_add_func ("/ui/references/links", test_links);
  return g_test_run ();
}
