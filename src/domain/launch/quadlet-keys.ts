// The [Container] keys podman's quadlet generator accepts (podman's pkg/systemd/quadlet/quadlet.go,
// supportedContainerKeys). Any other key makes the generator reject the whole file: no service is generated
// and nothing starts. Only a key within a typo's reach of a known one is judged, so a key a newer podman added
// is never called unknown by an older list. Pure.
import { closest } from "../../lib/did-you-mean.js";
import type { UnitFile } from "./unit.js";

const CONTAINER_KEYS =
  `AddCapability AddDevice AddHost Annotation AutoUpdate CgroupsMode ContainerName ContainersConfModule DNS
DNSOption DNSSearch DropCapability Environment EnvironmentFile EnvironmentHost Entrypoint Exec ExposeHostPort GIDMap
GlobalArgs Group GroupAdd HealthCmd HealthInterval HealthOnFailure HealthLogDestination HealthMaxLogCount
HealthMaxLogSize HealthRetries HealthStartPeriod HealthStartupCmd HealthStartupInterval HealthStartupRetries
HealthStartupSuccess HealthStartupTimeout HealthTimeout HostName IP6 IP Image Label LogDriver LogOpt Mask Memory Mount
Network NetworkAlias NoNewPrivileges Notify PidsLimit Pod PodmanArgs PublishPort Pull ReadOnly ReadOnlyTmpfs ReloadCmd
ReloadSignal RemapGid RemapUid RemapUidSize RemapUsers Retry RetryDelay Rootfs RunInit SeccompProfile Secret
SecurityLabelDisable SecurityLabelFileType SecurityLabelLevel SecurityLabelNested SecurityLabelType ServiceName
ShmSize StopSignal StartWithPod StopTimeout SubGIDMap SubUIDMap Sysctl Timezone Tmpfs UIDMap Ulimit Unmask User UserNS
VolatileTmp Volume WorkingDir`.split(/\s+/);

/** A [Container] key that is a misspelling of a known one (`Eeec=` for `Exec=`), with the key it was meant as. */
export function misspeltContainerKey(unit: UnitFile): { key: string; line: number; meant: string } | null {
  for (const e of unit.entries) {
    if (e.section !== "Container" || CONTAINER_KEYS.includes(e.key)) continue;
    const meant = closest(e.key, CONTAINER_KEYS);
    if (meant) return { key: e.key, line: e.line, meant };
  }
  return null;
}
