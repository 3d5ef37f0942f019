/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-rosenbrock.c — Rosenbrock methods in the Hairer–Wanner transformed
 * form (Esqué 2008, §4.1, eqs. 4.9–4.11; Hairer & Wanner 1996, §IV.7):
 *
 *   (1/(hγ)·I − J)·u_i = f(t + α_i·h, y + Σ_{j<i} a_ij·u_j)
 *                        + Σ_{j<i} (c_ij/h)·u_j + γ_i·h·∂f/∂t
 *   y1 = y + Σ m_i·u_i ,   err = Σ e_i·u_i
 *
 * One Jacobian per accepted point, one LU per attempt, s back-substitutions.
 * A method is a HydRosenbrockTable (hyd-ode-private.h); the code below is
 * shared by all. Coefficients are full precision (from the
 * sources named at each table); where a source gives the method in the original (α_ij, γ_ij, b, b̂)
 * form, the transformed one is a = αΓ⁻¹, c = diag(1/γ) − Γ⁻¹, m = bᵀΓ⁻¹,
 * computed in 40-digit arithmetic. tests/engine/test-rosenbrock.c checks
 * every table against the order conditions up to order 5. */
#include "hyd-ode-private.h"

#include <math.h>
#include <string.h>

/* RODAS4: HW rodas.f METH = 1 (Hairer & Wanner 1996), full precision
 * (not the 8–9 digits printed in Esqué 2008, App. A). Stiffly accurate,
 * L-stable, 4(3). */
static const HydRosenbrockTable rodas4_table = {
  .s = 6,
  .gamma = 0.25,
  .a = {
    { 0 },
    { 1.544 },
    { 0.9466785280815826, 0.2557011698983284 },
    { 3.314825187068521, 2.896124015972201, 0.9986419139977817 },
    { 1.221224509226641, 6.019134481288629, 12.53708332932087,
      -0.6878860361058950 },
    { 1.221224509226641, 6.019134481288629, 12.53708332932087,
      -0.6878860361058950, 1.0 },
  },
  .c = {
    { 0 },
    { -5.6688 },
    { -2.430093356833875, -0.2063599157091915 },
    { -0.1073529058151375, -9.594562251023355, -20.47028614809616 },
    { 7.496443313967647, -10.24680431464352, -33.99990352819905,
      11.70890893206160 },
    { 8.083246795921522, -7.981132988064893, -31.52159432874371,
      16.31930543123136, -6.058818238834054 },
  },
  .m = { 1.221224509226641, 6.019134481288629, 12.53708332932087,
         -0.6878860361058950, 1.0, 1.0 },
  .e = { 0.0, 0.0, 0.0, 0.0, 0.0, 1.0 },
  .alpha = { 0.0, 0.386, 0.21, 0.63, 1.0, 1.0 },
  .gamma_i = { 0.25, -0.1043, 0.1035, -0.3620000000000023e-1, 0.0, 0.0 },
  .has_dense = TRUE,
  .d = {
    { 10.12623508344586, -7.487995877610167, -34.80091861555747,
      -7.992771707568823, 1.025137723295662, 0.0 },
    { -0.6762803392801253, 6.087714651680015, 16.43084320892478,
      24.76722511418386, -6.594389125716872, 0.0 },
  },
};

/* Methods against order reduction (Steinebach). On stiff problems with
 * time-dependent inputs — the Prothero–Robinson equation y' = λ(y − g(t))
 * + g'(t), a node driven by a sinusoidal flow — a Rosenbrock method's order
 * can drop to 1 or 2 as hλ → −∞ unless its coefficients satisfy extra
 * conditions (Steinebach 1995; Hairer & Wanner 1996, §IV.15, B-convergence).
 * These three keep the RODAS structure (stiffly accurate, L-stable, the
 * same continuous extension as RODAS4/RODAS5) with coefficients chosen to
 * satisfy them; the coefficients are the published ones, in the same
 * Hairer–Wanner transformed form as the tables above. */

/* RODASP (Steinebach 1995, "Order-reduction of ROW-methods for DAEs and
 * method of lines applications", Preprint 1741, TH Darmstadt), known since
 * as Rodas4P: 4(3), the PR conditions of the main method to order 3. */
static const HydRosenbrockTable rodas4p_table = {
  .s = 6,
  .gamma = 0.25,
  .a = {
    { 0 },
    { 3.0 },
    { 1.831036793486759, 0.4955183967433795 },
    { 2.304376582692669, -0.05249275245743001, -1.176798761832782 },
    { -7.170454962423024, -4.741636671481785, -16.31002631330971,
      -1.062004044111401 },
    { -7.170454962423024, -4.741636671481785, -16.31002631330971,
      -1.062004044111401, 1.0 },
  },
  .c = {
    { 0 },
    { -12.0 },
    { -8.791795173947035, -2.207865586973518 },
    { 10.81793056857153, 6.780270611428266, 19.53485944642410 },
    { 34.19095006749676, 15.49671153725963, 54.74760875964130,
      14.16005392148534 },
    { 34.62605830930532, 15.30084976114473, 56.99955578662667,
      18.40807009793095, -5.714285714285717 },
  },
  .m = { -7.170454962423024, -4.741636671481785, -16.31002631330971,
         -1.062004044111401, 1.0, 1.0 },
  .e = { 0.0, 0.0, 0.0, 0.0, 0.0, 1.0 },
  .alpha = { 0.0, 0.75, 0.21, 0.63, 1.0, 1.0 },
  .gamma_i = { 0.25, -0.5, -0.023504, -0.0362, 0.0, 0.0 },
  .has_dense = TRUE,
  .d = {
    { 25.09876703708589, 11.62013104361867, 28.49148307714626,
      -5.664021568594133, 0.0, 0.0 },
    { 1.638054557396973, -0.7373619806678748, 8.477918219238990,
      15.99253148779520, -1.882352941176471, 0.0 },
  },
};

/* Rodas4P2 (Steinebach 2020, "Improvement of Rosenbrock-Wanner method
 * RODASP", in Reis & Schöps (eds.), Progress in Differential-Algebraic
 * Equations II, Springer, pp. 165–184): 4(3), the PR conditions of the main
 * and the embedded method to order 4 and 3, and a dense output that keeps
 * them. */
static const HydRosenbrockTable rodas4p2_table = {
  .s = 6,
  .gamma = 0.25,
  .a = {
    { 0 },
    { 3.0 },
    { 0.906377755268814, -0.189707390391685 },
    { 3.758617027739064, 1.161741776019525, -0.849258085312803 },
    { 7.089566927282776, 4.573591406461604, -8.423496976860259,
      -0.959280113459775 },
    { 7.089566927282776, 4.573591406461604, -8.423496976860259,
      -0.959280113459775, 1.0 },
  },
  .c = {
    { 0 },
    { -12.0 },
    { -6.354581592719008, 0.338972550544623 },
    { -8.575016317114033, -7.606483992117508, 12.224997650124820 },
    { -5.888975457523102, -8.157396617841821, 24.805546872612922,
      12.790401512796979 },
    { -4.408651676063871, -6.692003137674639, 24.625568527593117,
      16.627521966636085, -5.714285714285718 },
  },
  .m = { 7.089566927282776, 4.573591406461604, -8.423496976860259,
         -0.959280113459775, 1.0, 1.0 },
  .e = { 0.0, 0.0, 0.0, 0.0, 0.0, 1.0 },
  .alpha = { 0.0, 0.75, 0.321448134013046, 0.519745732277726, 1.0, 1.0 },
  .gamma_i = { 0.25, -0.5, -0.189532918363016, 0.085612108792769, 0.0, 0.0 },
  .has_dense = TRUE,
  .d = {
    { -5.323528268423303, -10.042123754867493, 17.175254928256965,
      -5.079931171878093, -0.016185991706112, 0.0 },
    { 6.984505741529879, 6.914061169603662, -0.849178943070653,
      18.104410789349338, -3.516963011559032, 0.0 },
  },
};

/* Rodas5P (Steinebach 2023, "Construction of Rosenbrock–Wanner method
 * Rodas5P and numerical benchmarks within the Julia Differential Equations
 * package", BIT Numerical Mathematics 63:27): 5(4), eight stages like
 * RODAS5, the PR conditions to order 4 (main) and 3 (embedded), and a
 * continuous extension of order 4. */
static const HydRosenbrockTable rodas5p_table = {
  .s = 8,
  .gamma = 0.21193756319429014,
  .a = {
    { 0 },
    { 3.0 },
    { 2.849394379747939, 0.45842242204463923 },
    { -6.954028509809101, 2.489845061869568, -10.358996098473584 },
    { 2.8029986275628964, 0.5072464736228206, -0.3988312541770524,
      -0.04721187230404641 },
    { -7.502846399306121, 2.561846144803919, -11.627539656261098,
      -0.18268767659942256, 0.030198172008377946 },
    { -7.502846399306121, 2.561846144803919, -11.627539656261098,
      -0.18268767659942256, 0.030198172008377946, 1.0 },
    { -7.502846399306121, 2.561846144803919, -11.627539656261098,
      -0.18268767659942256, 0.030198172008377946, 1.0, 1.0 },
  },
  .c = {
    { 0 },
    { -14.155112264123755 },
    { -17.97296035885952, -2.859693295451294 },
    { 147.12150275711716, -1.41221402718213, 71.68940251302358 },
    { 165.43517024871676, -0.4592823456491126, 42.90938336958603,
      -5.961986721573306 },
    { 24.854864614690072, -3.0009227002832186, 47.4931110020768,
      5.5814197821558125, -0.6610691825249471 },
    { 30.91273214028599, -3.1208243349937974, 77.79954646070892,
      34.28646028294783, -19.097331116725623, -28.087943162872662 },
    { 37.80277123390563, -3.2571969029072276, 112.26918849496327,
      66.9347231244047, -40.06618937091002, -54.66780262877968,
      -9.48861652309627 },
  },
  .m = { -7.502846399306121, 2.561846144803919, -11.627539656261098,
         -0.18268767659942256, 0.030198172008377946, 1.0, 1.0, 1.0 },
  .e = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0 },
  .alpha = { 0.0, 0.6358126895828704, 0.4095798393397535, 0.9769306725060716,
             0.4288403609558664, 1.0, 1.0, 1.0 },
  .gamma_i = { 0.21193756319429014, -0.42387512638858027, -0.3384627126235924,
               1.8046452872882734, 2.325825639765069, 0.0, 0.0, 0.0 },
  .has_dense = TRUE,
  .d = {
    { 25.948786856663858, -2.5579724845846235, 10.433815404888879,
      -2.3679251022685204, 0.524948541321073, 1.1241088310450404,
      0.4272876194431874, -0.17202221070155493 },
    { -9.91568850695171, -0.9689944594115154, 3.0438037242978453,
      -24.495224566215796, 20.176138334709044, 15.98066361424651,
      -6.789040303419874, -6.710236069923372 },
    { 11.419903575922262, 2.8879645146136994, 72.92137995996029,
      80.12511834622643, -52.072871366152654, -59.78993625266729,
      -0.15582684282751913, 4.883087185713722 },
  },
};

/* RODAS3: Sandu et al. (1997), as in Esqué (2008) App. A, identical to KPP/FATODE
 * Rodas3 (exact rationals). Stiffly accurate, L-stable, 3(2); err = u4.
 * Stage 2 is evaluated at (t, y) and reuses f0. */
static const HydRosenbrockTable rodas3_table = {
  .s = 4,
  .gamma = 0.5,
  .a = {
    { 0 },
    { 0.0 },
    { 2.0, 0.0 },
    { 2.0, 0.0, 1.0 },
  },
  .c = {
    { 0 },
    { 4.0 },
    { 1.0, -1.0 },
    { 1.0, -1.0, -8.0 / 3.0 },
  },
  .m = { 2.0, 0.0, 1.0, 1.0 },
  .e = { 0.0, 0.0, 0.0, 1.0 },
  .alpha = { 0.0, 0.0, 1.0, 1.0 },
  .gamma_i = { 0.5, 1.5, 0.0, 0.0 },
  .reuse_f = { FALSE, TRUE, FALSE, FALSE },
};

/* The four-stage sets of HW ros4.f (COEFST, COEFGR, COEFG4, COEFL4), all
 * 4(3) with a43 = 0 and a4j = a3j, so stage 4 reuses the f of stage 3. */

/* ROS4 L-stable set (ros4.f METH = 6): the thesis's "L-stable 4(3)" ROS4
 * (Esqué 2008, Tables 5.1/5.3). γ = 0.57282 is the L-stable root 0.5728160…
 * rounded, so |R(∞)| ≈ 1.5e-5 rather than 0. */
static const HydRosenbrockTable ros4_table = {
  .s = 4,
  .gamma = 0.57282,
  .a = {
    { 0 },
    { 2.0 },
    { 1.867943637803922, 0.2344449711399156 },
    { 1.867943637803922, 0.2344449711399156, 0.0 },
  },
  .c = {
    { 0 },
    { -7.137615036412310 },
    { 2.580708087951457, 0.6515950076447975 },
    { -2.137148994382534, -0.3214669691237626, -0.6949742501781779 },
  },
  .m = { 2.255570073418735, 0.2870493262186792, 0.4353179431840180,
         1.093502252409163 },
  .e = { -0.2815431932141155, -0.07276199124938920, -0.1082196201495311,
         -1.093502252409163 },
  .alpha = { 0.0, 1.14564, 0.6552168638155900, 0.6552168638155900 },
  .gamma_i = { 0.57282, -1.769193891319233, 0.7592633437920482,
               -0.1049021087100450 },
  .reuse_f = { FALSE, FALSE, FALSE, TRUE },
};

/* GRK4T, Kaps & Rentrop (1979) (ros4.f METH = 2, its default). Not
 * A-stable: max |R(iy)| ≈ 1.028; R(∞) ≈ 0.454. */
static const HydRosenbrockTable grk4t_table = {
  .s = 4,
  .gamma = 0.231,
  .a = {
    { 0 },
    { 2.0 },
    { 4.524708207373116, 4.163528788597648 },
    { 4.524708207373116, 4.163528788597648, 0.0 },
  },
  .c = {
    { 0 },
    { -5.071675338776316 },
    { 6.020152728650786, 0.1597506846727117 },
    { -1.856343618686113, -8.505380858179826, -2.084075136023187 },
  },
  .m = { 3.957503746640777, 4.624892388363313, 0.6174772638750108,
         1.282612945269037 },
  .e = { 2.302155402932996, 3.073634485392623, -0.8732808018045032,
         -1.282612945269037 },
  .alpha = { 0.0, 0.462, 0.8802083333333334, 0.8802083333333334 },
  .gamma_i = { 0.231, -0.03962966775244303, 0.5507789395789127,
               -0.05535098457052764 },
  .reuse_f = { FALSE, FALSE, FALSE, TRUE },
};

/* GRK4A, Kaps & Rentrop (1979) (ros4.f METH = 3): A-stable, R(∞) ≈ 0.995.
 *
 * The error estimate is ours. Because stage 4 has the arguments of stage 3,
 * the four order-3 conditions on an embedded b̂ have rank 3 (to the 16
 * digits of the table): ros4.f's b̂ is one member of a one-parameter
 * family, with R̂(∞) ≈ 1.676 and max |R̂(iy)| ≈ 1.676. We take the member
 * with R̂(∞) = 0, b̂ = (0.414263920058607, 0.194689208811706,
 * 0.506562249489245, −0.115515378359558) in the original form: order 3,
 * A-stable, so err = y1 − ŷ ≈ R(∞)·d sees a stiff deviation d that y1
 * keeps. Same four stages, no extra cost; digits from 40-digit arithmetic
 * (tests/engine/test-rosenbrock.c checks the order and R̂). */
static const HydRosenbrockTable grk4a_table = {
  .s = 4,
  .gamma = 0.395,
  .a = {
    { 0 },
    { 1.108860759493671 },
    { 2.377085261983360, 0.1850114988899692 },
    { 2.377085261983360, 0.1850114988899692, 0.0 },
  },
  .c = {
    { 0 },
    { -4.920188402397641 },
    { 1.055588686048583, 3.351817267668938 },
    { 3.846869007049313, 3.427109241268180, -2.162408848753263 },
  },
  .m = { 1.845683240405840, 0.1369796894360503, 0.7129097783291559,
         0.6329113924050632 },
  .e = { -0.070644914240167285, 0.94611589079766586, -0.31973481999537237,
         0.92535538825204424 },
  .alpha = { 0.0, 0.438, 0.87, 0.87 },
  .gamma_i = { 0.395, -0.3726723954840920, 0.06629196544571492,
               0.4340946962568634 },
  .reuse_f = { FALSE, FALSE, FALSE, TRUE },
};

/* Shampine (1982) (ros4.f METH = 1), exact rationals: A-stable,
 * R(∞) = 1/3. */
static const HydRosenbrockTable shampine_table = {
  .s = 4,
  .gamma = 0.5,
  .a = {
    { 0 },
    { 2.0 },
    { 48.0 / 25.0, 6.0 / 25.0 },
    { 48.0 / 25.0, 6.0 / 25.0, 0.0 },
  },
  .c = {
    { 0 },
    { -8.0 },
    { 372.0 / 25.0, 12.0 / 5.0 },
    { -112.0 / 125.0, -54.0 / 125.0, -2.0 / 5.0 },
  },
  .m = { 19.0 / 9.0, 1.0 / 2.0, 25.0 / 108.0, 125.0 / 108.0 },
  .e = { 17.0 / 54.0, 7.0 / 36.0, 0.0, 125.0 / 108.0 },
  .alpha = { 0.0, 1.0, 0.6, 0.6 },
  .gamma_i = { 0.5, -1.5, 2.42, 0.116 },
  .reuse_f = { FALSE, FALSE, FALSE, TRUE },
};

/* ROS3P, Lang & Verwer (2001), as in Esqué (2008) App. B: γ = 1/2 + √3/6, so
 * R(∞) = 1 − √3 ≈ −0.732 (A-stable, not L-stable). a = (1/γ, 1/γ, 0),
 * c21 = −1/γ², c32 = −(2 − 1/(2γ))/γ, c31 = −(1 − c32)/γ, m = ((1 + m2)/γ,
 * m2 = (2/3 − 1/(6γ))/γ, 1/(3γ)); stage 3 reuses the f of stage 2.
 *
 * The error estimate is ours. Lang & Verwer's embedded b̂ = (1/3, 1/3, 1/3)
 * — like every 2nd-order formula on these three stages — has R̂(∞) = R(∞),
 * so it cannot see the stiff modes that y1 leaves ringing at −0.732 per
 * step (OREGO at rtol 1e-6: mescd 1.0). A fourth stage at (t + h, y1) with
 * γ4j = 0 (j < 4) costs one back-substitution and no evaluation (its f is
 * the next step's f0, FSAL) and allows an L-stable 2nd-order embedded
 * formula: b̂ = (0.3075…, −2.3214…, 1.7698…, 1.2440…) in the original form,
 * fixed by order 2, R̂(∞) = 0 and equal and opposite order-3 residuals
 * (±0.359). y1 is ROS3P's. Digits from 40-digit arithmetic. */
static const HydRosenbrockTable ros3p_table = {
  .s = 4,
  .gamma = 0.78867513459481288,
  .a = {
    { 0 },
    { 1.2679491924311227 },
    { 1.2679491924311227, 0.0 },
    { 2.0, 0.57735026918962576, 0.42264973081037424 },
  },
  .c = {
    { 0 },
    { -1.6076951545867362 },
    { -3.4641016151377546, -1.7320508075688773 },
    { 0.0, 0.0, 0.0 },
  },
  .m = { 2.0, 0.57735026918962576, 0.42264973081037424, 0.0 },
  .e = { -0.78867513459481288, 0.45534180126147955, -1.8213672050459182,
         -1.5773502691896258 },
  .alpha = { 0.0, 1.0, 1.0, 1.0 },
  .gamma_i = { 0.78867513459481288, -0.21132486540518712,
               -1.0773502691896258, 0.78867513459481288 },
  .reuse_f = { FALSE, FALSE, TRUE, FALSE },
};

/* ROS2, Verwer, Spee, Blom & Hundsdorfer (1999), γ = 1 + 1/√2 (KPP Ros2):
 * L-stable; the embedded formula is the 1st-order y + k1 (b̂ = (1, 0)). */
static const HydRosenbrockTable ros2_table = {
  .s = 2,
  .gamma = 1.7071067811865475,
  .a = {
    { 0 },
    { 0.58578643762690495 },
  },
  .c = {
    { 0 },
    { -1.1715728752538099 },
  },
  .m = { 0.87867965644035743, 0.29289321881345248 },
  .e = { 0.29289321881345248, 0.29289321881345248 },
  .alpha = { 0.0, 1.0 },
  .gamma_i = { 1.7071067811865475, -1.7071067811865475 },
};

/* ROS2p, Piché & Ellman (1994), as in Esqué (2008) App. B: (I − hγJ)k1 = hf(t, y),
 * (I − hγJ)k2 = hf(t + a21·h, y + a21·k1), y1 = y + k2, γ = 1 − 1/√2,
 * a21 = (√2 − 1)/2 — L-stable, order 2. The thesis prints no error
 * estimate; ours is the difference to the 1st-order embedded formula
 * ŷ = y + k1 (a linearly implicit Euler step with the same γ), err =
 * k2 − k1 = O(h²), free of extra evaluations. On two stages every other
 * consistent formula gives a multiple of k2 − k1, so the choice only sets
 * the scale; its R̂(∞) = 1 − 1/γ ≈ −2.41, but y1 itself is L-stable and a
 * stiff component near its slow manifold keeps k1, k2 small. Transformed:
 * u = γk, so a21 = a21'/γ = 1/√2, m = (0, 1/γ), m̂ = (1/γ, 0). */
static const HydRosenbrockTable ros2p_table = {
  .s = 2,
  .gamma = 0.29289321881345248,
  .a = {
    { 0 },
    { 0.70710678118654752 },
  },
  .c = {
    { 0 },
    { 0.0 },
  },
  .m = { 0.0, 3.4142135623730950 },
  .e = { -3.4142135623730950, 3.4142135623730950 },
  .alpha = { 0.0, 0.20710678118654752 },
  .gamma_i = { 0.29289321881345248, 0.29289321881345248 },
};

/* ODE23s, Shampine & Reichelt (1997), the modified Rosenbrock triple of
 * MATLAB (used by Esqué 2008, Table 5.3): with d = 1/(2 + √2), e32 = 6 + √2,
 * W = I − h·d·J, T = ∂f/∂t,
 *   k1 = W⁻¹(F0 + h·d·T),  F1 = f(t + h/2, y + h·k1/2),
 *   k2 = W⁻¹(F1 − k1) + k1,  y1 = y + h·k2           (order 2, L-stable)
 *   F2 = f(t + h, y1),  k3 = W⁻¹[F2 − e32(k2 − F1) − 2(k1 − F0) + h·d·T]
 *   err = (h/6)(k1 − 2k2 + k3)                       (3rd-order estimate)
 * Eliminating F0, F1 through the stage equations makes it a three-stage
 * ROW method: γ = d, α21 = 1/2, α32 = 1, γ21 = −d, γ31 = d(e32 − 2),
 * γ32 = −d·e32, b = (0, 1, 0), b̂ = b + (1, −2, 1)/6 (order 3). Stage 3 is
 * evaluated at (t + h, y1): first same as last, handed to the driver. The
 * continuous extension y0 + h[θ(1 − θ)k1 + θ(θ − 2d)k2]/(1 − 2d) is the
 * RODAS form with k1 = −u2/(d(1 − 2d)). */
static const HydRosenbrockTable ode23s_table = {
  .s = 3,
  .gamma = 0.29289321881345248,
  .a = {
    { 0 },
    { 1.7071067811865475 },
    { 3.4142135623730950, 3.4142135623730950 },
  },
  .c = {
    { 0 },
    { -3.4142135623730950 },
    { -6.8284271247461901, -25.313708498984760 },
  },
  .m = { 3.4142135623730950, 3.4142135623730950, 0.0 },
  .e = { -0.56903559372884917, -3.0808802290397617, -0.56903559372884917 },
  .alpha = { 0.0, 0.5, 1.0 },
  .gamma_i = { 0.29289321881345248, 0.0, -0.29289321881345248 },
  .has_dense = TRUE,
  .d = {
    { 0.0, -8.2426406871192851, 0.0 },
  },
};

/* ROS34PW2, Rang & Angermann (2005, BIT 45): a W-method (order 3
 * for any matrix in place of J), stiffly accurate, L-stable, 3(2).
 * Transformed from their α_ij, γ_ij, b, b̂ (γ = 0.435866521508459); m is
 * the last row of a with m4 = 1 (stiff accuracy), γ_4 = 0. Checked against
 * the original-form set as distributed with PETSc (TSROSWRA34PW2) and
 * OrdinaryDiffEq.jl: equal to 2e-16. Its embedded formula is A-stable with
 * R̂(∞) ≈ −0.478, as Rang & Angermann state. Two properties of the method
 * itself (not of this transcription) matter on E5 at atol = 1e-6: R(z) < 0
 * for z < −2.80, so a decaying component changes sign in a long step, and
 * the argument of stage 4 carries stiff components ×(−1.91) at z = −∞. */
static const HydRosenbrockTable ros34pw2_table = {
  .s = 4,
  .gamma = 0.43586652150845900,
  .a = {
    { 0 },
    { 2.0 },
    { 1.4192173174557647, -0.25923221167296971 },
    { 4.1847604823191607, -0.28519201735549591, 2.2942803602790417 },
  },
  .c = {
    { 0 },
    { -4.5885607205580835 },
    { -4.1847604823191607, 0.28519201735549591 },
    { -6.3681792001283578, -6.7956209444668362, 2.8700986043310561 },
  },
  .m = { 4.1847604823191607, -0.28519201735549591, 2.2942803602790417, 1.0 },
  .e = { 0.27774994764796811, -1.4032398951759990, 1.7726301276675507, 0.5 },
  .alpha = { 0.0, 0.87173304301691801, 0.73157995778885238, 1.0 },
  .gamma_i = { 0.43586652150845900, -0.43586652150845901,
               -0.41333337623388649, 0.0 },
};

/* RODAS5, Di Marzo (1993), RODAS5(4): stiffly accurate, L-stable, 5(4),
 * err = u8 (ŷ is the argument of stage 8, itself stiffly accurate and
 * L-stable, order 4). 16-digit coefficients as distributed with
 * OrdinaryDiffEq.jl; transformed back to the original form they agree to
 * 4e-15 with Di Marzo's α_ij, β_ij = α_ij + γ_ij and b as listed there, and
 * α_i, γ_i = Σ_j γ_ij (c2…c5, d1…d5 there) are those of the table. Its
 * order-4 continuous extension (three vectors, Steinebach) satisfies the
 * dense order conditions to 1e-14 (tests/engine/test-rosenbrock.c).
 * Properties of the method itself that RODAS4 does not share: R(z) < 0 for
 * z < −5.30 (RODAS4: R > 0 on the whole negative axis), the argument of
 * stage 6 carries stiff components ×(−8.48) at z = −∞, and its embedded
 * formula is not A-stable (max |R̂(iy)| ≈ 1.25). */
static const HydRosenbrockTable rodas5_table = {
  .s = 8,
  .gamma = 0.19,
  .a = {
    { 0 },
    { 2.0 },
    { 3.040894194418781, 1.041747909077569 },
    { 2.576417536461461, 1.622083060776640, -0.9089668560264532 },
    { 2.760842080225597, 1.446624659844071, -0.3036980084553738,
      0.2877498600325443 },
    { -14.09640773051259, 6.925207756232704, -41.47510893210728,
      2.343771018586405, 24.13215229196062 },
    { -14.09640773051259, 6.925207756232704, -41.47510893210728,
      2.343771018586405, 24.13215229196062, 1.0 },
    { -14.09640773051259, 6.925207756232704, -41.47510893210728,
      2.343771018586405, 24.13215229196062, 1.0, 1.0 },
  },
  .c = {
    { 0 },
    { -10.31323885133993 },
    { -21.04823117650003, -7.234992135176716 },
    { 32.22751541853323, -4.943732386540191, 19.44922031041879 },
    { -20.69865579590063, -8.816374604402768, 1.260436877740897,
      -0.7495647613787146 },
    { -46.22004352711257, -17.49534862857472, -289.6389582892057,
      93.60855400400906, 318.3822534212147 },
    { 34.20013733472935, -14.15535402717690, 57.82335640988400,
      25.83362985412365, 1.408950972071624, -6.551835421242162 },
    { 42.57076742291101, -13.80770672017997, 93.98938432427124,
      18.77919633714503, -31.58359187223370, -6.685968952921985,
      -5.810979938412932 },
  },
  .m = { -14.09640773051259, 6.925207756232704, -41.47510893210728,
         2.343771018586405, 24.13215229196062, 1.0, 1.0, 1.0 },
  .e = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0 },
  .alpha = { 0.0, 0.38, 0.3878509998321533, 0.4839718937873840,
             0.4570477008819580, 1.0, 1.0, 1.0 },
  .gamma_i = { 0.19, -0.1823079225333714636, -0.319231832186874912,
               0.3449828624725343, -0.377417564392089818, 0.0, 0.0, 0.0 },
  .has_dense = TRUE,
  .d = {
    { 27.354592673333357, -6.925207756232857, 26.40037733258859,
      0.5635230501052979, -4.699151156849391, -1.6008677469422725,
      -1.5306074446748028, -1.3929872940716344 },
    { 44.19024239501722, 1.3677947663381929e-13, 202.93261852171622,
      -35.5669339789154, -181.91095152160645, 3.4116351403665033,
      2.5793540257308067, 2.2435122582734066 },
    { -44.0988150021747, -5.755396159656812e-13, -181.26175034586677,
      56.99302194811676, 183.21182741427398, -7.480257918273637,
      -5.792426076169686, -5.32503859794143 },
  },
};

typedef struct {
  const HydRosenbrockTable *tab;
  guint n;
  /* The last stage is evaluated at (t + h, y1): its f is f_new (FSAL). */
  gboolean last_is_fsal;
  /* Weight K of the stiff part of the error estimate (see
   * rosenbrock_attempt): |R(∞)|/(1 − |R(∞)|), 0 for L-stable tables. */
  double stiff_weight;
  double *efilt;
  HydJac *J;         /* at the prepared point */
  double *fx;        /* ∂f/∂t there */
  HydLinSolver *lu;
  double *u;         /* s stage vectors, n each */
  double *ystage;
  double *fstage;
  double *errv;
  /* The last attempt, for the continuous extension. */
  double t, h;
  double *y0, *y1, *f0, *f1;
  double *k[3];
  gboolean dense_ready;
  gboolean f1_valid;
  gboolean fsal_valid;
} RosenbrockWork;

/* FSAL when the last stage's arguments are exactly those of y1: α_s = 1,
 * a_sj = m_j (j < s) and m_s = 0 (ode23s). */
static gboolean
table_last_is_fsal (const HydRosenbrockTable *tab)
{
  guint s = tab->s;

  if (s < 2 || tab->alpha[s - 1] != 1.0 || tab->m[s - 1] != 0.0
      || tab->reuse_f[s - 1])
    return FALSE;
  for (guint j = 0; j + 1 < s; j++)
    if (tab->a[s - 1][j] != tab->m[j])
      return FALSE;
  return TRUE;
}

/* R(∞) = 1 − bᵀB⁻¹𝟙 with B = α + Γ (HW IV.7); in the transformed form
 * α + Γ = (I + a)Γ and bᵀ = mᵀΓ, so R(∞) = 1 − mᵀ(I + a)⁻¹𝟙, one forward
 * substitution on the table. */
static double
table_r_inf (const HydRosenbrockTable *tab)
{
  double v[HYD_ROS_MAX_STAGES], r = 1.0;

  for (guint i = 0; i < tab->s; i++)
    {
      v[i] = 1.0;
      for (guint j = 0; j < i; j++)
        v[i] -= tab->a[i][j] * v[j];
      r -= tab->m[i] * v[i];
    }
  return r;
}

static gpointer
rosenbrock_workspace_new (const HydOdeMethod *method, guint n)
{
  const HydRosenbrockTable *tab = method->data;
  RosenbrockWork *w = g_new0 (RosenbrockWork, 1);

  g_assert (tab->s <= HYD_ROS_MAX_STAGES);
  w->tab = tab;
  w->n = n;
  w->last_is_fsal = table_last_is_fsal (tab);
  /* ROS4's rounded γ leaves |R(∞)| ≈ 1.5e-5: L-stable for this purpose. */
  double r_inf = fabs (table_r_inf (tab));
  w->stiff_weight = r_inf > 1e-3 ? r_inf / (1.0 - r_inf) : 0.0;
  if (w->stiff_weight > 0.0)
    w->efilt = g_new0 (double, n);
  w->fx = g_new0 (double, n);
  w->u = g_new0 (double, (gsize) n * tab->s);
  w->ystage = g_new0 (double, n);
  w->fstage = g_new0 (double, n);
  w->errv = g_new0 (double, n);
  w->y0 = g_new0 (double, n);
  w->y1 = g_new0 (double, n);
  w->f0 = g_new0 (double, n);
  w->f1 = g_new0 (double, n);
  for (guint r = 0; r < G_N_ELEMENTS (w->k); r++)
    w->k[r] = g_new0 (double, n);
  return w;
}

static void
rosenbrock_workspace_free (gpointer ws)
{
  RosenbrockWork *w = ws;

  if (w == NULL)
    return;
  hyd_jac_free (w->J);
  g_free (w->fx);
  hyd_linsolver_free (w->lu);
  g_free (w->u);
  g_free (w->ystage);
  g_free (w->fstage);
  g_free (w->errv);
  g_free (w->efilt);
  g_free (w->y0);
  g_free (w->y1);
  g_free (w->f0);
  g_free (w->f1);
  for (guint r = 0; r < G_N_ELEMENTS (w->k); r++)
    g_free (w->k[r]);
  g_free (w);
}

static int
rosenbrock_prepare (gpointer ws, HydOdeDriver *d, double t, const double *y,
                    const double *f0)
{
  RosenbrockWork *w = ws;

  if (w->J == NULL)
    {
      w->J = hyd_ode_driver_jac_new (d);
      w->lu = hyd_linsolver_new (w->J);
    }
  /* Kept over rejected attempts; only E is rebuilt (HW rodas.f). */
  return hyd_ode_driver_jacobian (d, t, y, f0, w->J, w->fx);
}

static HydAttempt
rosenbrock_attempt (gpointer ws, HydOdeDriver *d, double t, const double *y,
                    const double *f0, double h, double *y_new, double *err)
{
  RosenbrockWork *w = ws;
  const HydRosenbrockTable *tab = w->tab;
  guint n = w->n;
  const double *fi = f0;

  w->dense_ready = FALSE;
  w->f1_valid = FALSE;
  w->fsal_valid = FALSE;

  int info = hyd_linsolver_factor (w->lu, 1.0 / (h * tab->gamma), w->J);
  hyd_ode_driver_stats (d)->lu++;
  if (info != 0)
    {
      hyd_ode_driver_note_singular (d, info > 0 ? info - 1 : -1);
      return HYD_ATTEMPT_SINGULAR;
    }

  for (guint i = 0; i < tab->s; i++)
    {
      double *ui = w->u + (gsize) i * n;

      if (i > 0 && !tab->reuse_f[i])
        {
          for (guint k = 0; k < n; k++)
            {
              double v = y[k];
              for (guint j = 0; j < i; j++)
                v += tab->a[i][j] * w->u[(gsize) j * n + k];
              w->ystage[k] = v;
            }
          int rc = hyd_ode_driver_rhs (d, t + tab->alpha[i] * h, w->ystage,
                                       w->fstage);
          if (rc < 0)
            return HYD_ATTEMPT_FATAL;
          if (rc > 0)
            return HYD_ATTEMPT_RECOVERABLE;
          fi = w->fstage;
        }

      /* Right-hand side of stage i, including the γ_i·h·∂f/∂t term that a
       * non-autonomous problem needs for the full order (the thesis code, Esqué 2008 App. A/B, omits it). */
      double hg = tab->gamma_i[i] * h;
      for (guint k = 0; k < n; k++)
        {
          double v = fi[k] + hg * w->fx[k];
          for (guint j = 0; j < i; j++)
            v += (tab->c[i][j] / h) * w->u[(gsize) j * n + k];
          ui[k] = v;
        }
      hyd_linsolver_solve (w->lu, ui);
    }

  for (guint k = 0; k < n; k++)
    {
      double v = y[k], e = 0.0;
      for (guint j = 0; j < tab->s; j++)
        {
          double uj = w->u[(gsize) j * n + k];
          v += tab->m[j] * uj;
          e += tab->e[j] * uj;
        }
      y_new[k] = v;
      w->errv[k] = e;
    }

  /* A method that is not L-stable keeps a stiff component's error: y1
   * carries it on multiplied by about R(∞) per step, so what one step
   * commits there adds up to e_stiff·(1 + |R(∞)| + |R(∞)|² + …) =
   * e_stiff/(1 − |R(∞)|). The estimate counts it so: err = e + K·e_stiff,
   * K = |R(∞)|/(1 − |R(∞)|) (grk4a: 218, ros3p 2.7, grk4t 0.83, shampine
   * 0.5). The stiff part is e − (I − hγJ)⁻¹e (the filter of HW radau5.f
   * ESTRAD keeps the non-stiff part): one back-substitution, no f. Without
   * it GRK4A (R(∞) = 0.995) lets such errors pile up ~200 steps deep: on
   * ROBER at rtol = atol = 1e-6 it then reported success with y1 ≈ −5e7. */
  if (w->stiff_weight > 0.0)
    {
      memcpy (w->efilt, w->errv, n * sizeof (double));
      hyd_linsolver_solve (w->lu, w->efilt);
      double scale = 1.0 / (h * tab->gamma);
      for (guint k = 0; k < n; k++)
        w->errv[k] += w->stiff_weight * (w->errv[k] - scale * w->efilt[k]);
    }
  *err = hyd_ode_driver_error_norm (d, y, y_new, w->errv);

  w->t = t;
  w->h = h;
  memcpy (w->y0, y, n * sizeof (double));
  memcpy (w->y1, y_new, n * sizeof (double));
  if (!tab->has_dense)
    memcpy (w->f0, f0, n * sizeof (double));
  /* The last stage ran at t + h (the driver's t_new for any step that does
   * not end the interval) and the arguments of y_new. */
  w->fsal_valid = w->last_is_fsal;
  return HYD_ATTEMPT_OK;
}

static const double *
rosenbrock_fsal (gpointer ws)
{
  RosenbrockWork *w = ws;

  return w->fsal_valid ? w->fstage : NULL;
}

static int
rosenbrock_dense (gpointer ws, HydOdeDriver *d, double theta, double *y_out)
{
  RosenbrockWork *w = ws;
  const HydRosenbrockTable *tab = w->tab;
  guint n = w->n;
  double s1 = 1.0 - theta;

  if (tab->has_dense)
    {
      if (!w->dense_ready)
        {
          for (guint r = 0; r < G_N_ELEMENTS (w->k); r++)
            for (guint k = 0; k < n; k++)
              {
                double v = 0.0;
                for (guint j = 0; j < tab->s; j++)
                  v += tab->d[r][j] * w->u[(gsize) j * n + k];
                w->k[r][k] = v;
              }
          w->dense_ready = TRUE;
        }
      /* HW rodas.f CONTRO, with the θ² term of RODAS5. */
      const double *k1 = w->k[0], *k2 = w->k[1], *k3 = w->k[2];
      for (guint k = 0; k < n; k++)
        y_out[k] = s1 * w->y0[k]
                   + theta * (w->y1[k]
                              + s1 * (k1[k] + theta * (k2[k]
                                                       + theta * k3[k])));
      return 0;
    }

  /* Cubic Hermite on (y0, f0, y1, f1); f1 costs one evaluation per step. */
  if (!w->f1_valid)
    {
      int rc = hyd_ode_driver_rhs (d, w->t + w->h, w->y1, w->f1);
      if (rc != 0)
        return rc;
      w->f1_valid = TRUE;
    }
  double h00 = (1.0 + 2.0 * theta) * s1 * s1;
  double h10 = theta * s1 * s1;
  double h01 = theta * theta * (3.0 - 2.0 * theta);
  double h11 = -theta * theta * s1;
  for (guint k = 0; k < n; k++)
    y_out[k] = h00 * w->y0[k] + h10 * w->h * w->f0[k]
               + h01 * w->y1[k] + h11 * w->h * w->f1[k];
  return 0;
}

#define ROSENBROCK_VTABLE                          \
  .workspace_new = rosenbrock_workspace_new,       \
  .workspace_free = rosenbrock_workspace_free,     \
  .prepare = rosenbrock_prepare,                   \
  .attempt = rosenbrock_attempt,                   \
  .dense = rosenbrock_dense,                       \
  .fsal = rosenbrock_fsal

/* P: order of the propagated solution; Q: err = O(h^Q), one more than the
 * lower order of the pair (the controller's exponent 1/Q). */
#define ROSENBROCK_METHOD(ID, FAMILY, ORDER_TEXT, NOTES, TABLE, P, Q) \
  {                                                                   \
    .info = {                                                         \
      .id = ID,                                                       \
      .family = FAMILY,                                               \
      .order = ORDER_TEXT,                                            \
      .implicit = TRUE,                                               \
      .adaptive = TRUE,                                               \
      .multistep = FALSE,                                             \
      .notes = NOTES,                                                 \
    },                                                                \
    .data = &TABLE,                                                   \
    .order = P,                                                       \
    .error_order = Q,                                                 \
    ROSENBROCK_VTABLE,                                                \
  }

static const HydOdeMethod rosenbrock_methods[] = {
  ROSENBROCK_METHOD ("rodas4", "Rosenbrock, stiffly accurate", "4(3)",
                     "Hairer–Wanner RODAS (rodas.f METH = 1), L-stable, "
                     "dense output of order 3; the default",
                     rodas4_table, 4, 4.0),
  ROSENBROCK_METHOD ("rodas3", "Rosenbrock, stiffly accurate", "3(2)",
                     "Sandu et al. (1997) RODAS3 (Esqué 2008, App. A), "
                     "L-stable, 3 f evaluations per step",
                     rodas3_table, 3, 3.0),
  ROSENBROCK_METHOD ("ros4", "Rosenbrock", "4(3)",
                     "Hairer–Wanner ros4.f L-stable set (METH = 6, "
                     "γ = 0.57282), the thesis's ROS4",
                     ros4_table, 4, 4.0),
  ROSENBROCK_METHOD ("grk4t", "Rosenbrock", "4(3)",
                     "Kaps–Rentrop GRK4T (ros4.f METH = 2); not A-stable "
                     "(max |R(iy)| ≈ 1.03), R(∞) ≈ 0.454",
                     grk4t_table, 4, 4.0),
  ROSENBROCK_METHOD ("grk4a", "Rosenbrock", "4(3)",
                     "Kaps–Rentrop GRK4A (ros4.f METH = 3); A-stable, "
                     "R(∞) ≈ 0.995: hardly damps very stiff modes; "
                     "L-stable error estimate",
                     grk4a_table, 4, 4.0),
  ROSENBROCK_METHOD ("shampine", "Rosenbrock", "4(3)",
                     "Shampine (1982) (ros4.f METH = 1); A-stable, "
                     "R(∞) = 1/3",
                     shampine_table, 4, 4.0),
  ROSENBROCK_METHOD ("ros3p", "Rosenbrock", "3(2)",
                     "Lang & Verwer (2001) ROS3P (Esqué 2008, App. B); "
                     "A-stable, R(∞) = 1 − √3 ≈ −0.732; error estimate "
                     "from an L-stable FSAL embedded formula",
                     ros3p_table, 3, 3.0),
  ROSENBROCK_METHOD ("ros2", "Rosenbrock", "2",
                     "Verwer et al. (1999) ROS2, γ = 1 + 1/√2, L-stable; "
                     "error estimate from the 1st-order y + k1",
                     ros2_table, 2, 2.0),
  ROSENBROCK_METHOD ("ros2p", "Rosenbrock", "2",
                     "Piché & Ellman (1994) ROS2p (Esqué 2008, App. B), γ = 1 − 1/√2, "
                     "L-stable; error estimate from the 1st-order y + k1",
                     ros2p_table, 2, 2.0),
  ROSENBROCK_METHOD ("ode23s", "Rosenbrock triple", "2(3)",
                     "Shampine & Reichelt (1997), MATLAB ode23s: L-stable "
                     "order 2, 3rd-order error estimate, FSAL",
                     ode23s_table, 2, 3.0),
  ROSENBROCK_METHOD ("ros34pw2", "Rosenbrock-W", "3(2)",
                     "Rang & Angermann (2005) ROS34PW2: stays accurate with "
                     "an inexact Jacobian; stiffly accurate, L-stable",
                     ros34pw2_table, 3, 3.0),
  ROSENBROCK_METHOD ("rodas5", "Rosenbrock, stiffly accurate", "5(4)",
                     "Di Marzo (1993) RODAS5, L-stable, dense output of "
                     "order 4",
                     rodas5_table, 5, 5.0),
  ROSENBROCK_METHOD ("rodas4p", "Rosenbrock, stiffly accurate", "4(3)",
                     "Steinebach (1995) RODASP, L-stable, against order "
                     "reduction on stiff problems with time-dependent inputs",
                     rodas4p_table, 4, 4.0),
  ROSENBROCK_METHOD ("rodas4p2", "Rosenbrock, stiffly accurate", "4(3)",
                     "Steinebach (2020) Rodas4P2, L-stable, RODASP improved: "
                     "the embedded method and the dense output keep the order too",
                     rodas4p2_table, 4, 4.0),
  ROSENBROCK_METHOD ("rodas5p", "Rosenbrock, stiffly accurate", "5(4)",
                     "Steinebach (2023) Rodas5P, L-stable, against order "
                     "reduction, dense output of order 4",
                     rodas5p_table, 5, 5.0),
};

static const HydOdeMethod *const rosenbrock_members[] = {
  &rosenbrock_methods[0], &rosenbrock_methods[1], &rosenbrock_methods[2],
  &rosenbrock_methods[3], &rosenbrock_methods[4], &rosenbrock_methods[5],
  &rosenbrock_methods[6], &rosenbrock_methods[7], &rosenbrock_methods[8],
  &rosenbrock_methods[9], &rosenbrock_methods[10], &rosenbrock_methods[11],
  &rosenbrock_methods[12], &rosenbrock_methods[13], &rosenbrock_methods[14],
};

G_STATIC_ASSERT (G_N_ELEMENTS (rosenbrock_members)
                 == G_N_ELEMENTS (rosenbrock_methods));

const HydOdeMethod *const *
hyd_ode_family_rosenbrock (guint *n)
{
  *n = G_N_ELEMENTS (rosenbrock_members);
  return rosenbrock_members;
}
