// The head of a Deployment manifest, up to its containers list: the part every Kubernetes test file writes the same.
export const deploymentHead = (name: string): string =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      containers:\n`;
