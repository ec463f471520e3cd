// Kept in step with package.json by a unit test (the bundle cannot read package.json at run time).
export const VERSION = "0.1.0";
