/**
 * Requested permissions in words, and the grant that gives exactly what was requested.
 *
 * `RequestPermissionProfile` (`{ network: X | null, fileSystem: Y | null }`) and
 * `GrantedPermissionProfile` (`{ network?: X, fileSystem?: Y }`) carry the same inner types; the
 * grant keeps every requested part as it is and leaves out the parts that were not requested
 * (`null`), so nothing more than the request can be granted.
 *
 * Every function here is pure: values in, values out.
 */
import { codecs, type AdditionalFileSystemPermissions, type FileSystemPath, type GrantedPermissionProfile, type RequestPermissionProfile } from '@wework/codex-protocol';

const pathText = (path: FileSystemPath): string => {
  switch (path.type) {
    case 'path':
      return path.path;
    case 'glob_pattern':
      return path.pattern;
    case 'special':
      switch (path.value.kind) {
        case 'root':
          return 'the whole file system';
        case 'minimal':
          return 'the minimal system paths';
        case 'project_roots':
          return path.value.subpath ? `${path.value.subpath} in the project roots` : 'the project roots';
        case 'tmpdir':
          return 'the temporary directory';
        case 'slash_tmp':
          return '/tmp';
        case 'unknown':
          return path.value.subpath ? `${path.value.path}/${path.value.subpath}` : path.value.path;
        default:
          return 'a kind of special path this version does not know';
      }
    default:
      return 'a kind of path this version does not know';
  }
};

const fileSystemParts = (fs: AdditionalFileSystemPermissions): ReadonlyArray<string> => {
  const parts: string[] = [];
  if (fs.read && fs.read.length > 0) parts.push(`read access to ${fs.read.join(', ')}`);
  if (fs.write && fs.write.length > 0) parts.push(`write access to ${fs.write.join(', ')}`);
  for (const entry of fs.entries ?? []) parts.push(`${entry.access === 'deny' ? 'no access' : `${entry.access} access`} to ${pathText(entry.path)}`);
  return parts;
};

/** The requested permissions in words (`network access; write access to /repo/out`), or `null` when none. */
export function describePermissions(profile: RequestPermissionProfile): string | null {
  const parts: string[] = [];
  if (profile.network?.enabled === true) parts.push('network access');
  if (profile.fileSystem) parts.push(...fileSystemParts(profile.fileSystem));
  // `write` and `entries` often name the same path twice (Codex 0.171.0 sends both): say it once.
  return parts.length === 0 ? null : [...new Set(parts)].join('; ');
}

/**
 * The grant of exactly the requested permissions: `null` parts are left out, the others kept as
 * they are. `null` when a part is not a strict protocol value (it carries what this version does
 * not know), so that nothing unknown is ever granted.
 */
export function grantRequested(profile: RequestPermissionProfile): GrantedPermissionProfile | null {
  const grant: unknown = {
    ...(profile.network ? { network: profile.network } : {}),
    ...(profile.fileSystem ? { fileSystem: profile.fileSystem } : {}),
  };
  return codecs.GrantedPermissionProfile.is(grant) ? grant : null;
}
