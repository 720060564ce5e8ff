// The pay rules of the port's collective agreement (acordo colectivo dos estivadores, 2025). They
// are not deployment settings: they change when the agreement does, with a release.

export const PAY_RULES = Object.freeze({
  standardShiftMinutes: 480, // paid minutes of one shift before overtime starts
  overtimePermille: 1500, // overtime minutes are paid at 150 % of the base rate
  nightPremiumPermille: 250, // minutes inside the night window earn 25 % on top
  nightStartMinutes: 22 * 60, // the night window runs 22:00 to 06:00 UTC
  nightEndMinutes: 6 * 60,
});

/** Hourly base rates in minor units (EUR cents) by skill. */
export const HOURLY_RATES_MINOR = Object.freeze({
  crane: 2_450,
  "reach-stacker": 2_100,
  straddle: 2_100,
  lashing: 1_650,
  foreman: 2_600,
  checker: 1_500,
});
