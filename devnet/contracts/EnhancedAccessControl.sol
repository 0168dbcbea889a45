// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// Stands for ENSv2's EnhancedAccessControl (contracts-v2): roles held by an account on a resource, resource 0 being the
/// contract's root, whose roles count on every resource. A role bitmap has one nybble per role, of which only the low
/// bit is used; the upper 128 bits are the admin bits, and holding the admin bit of role `b` (bit `b + 128`) lets an
/// account grant and revoke both `b` and its admin bit. Every change emits `EACRolesChanged` with the bitmaps before
/// and after. Kept: root resource, per-resource roles, admin bits, the hooks a registry uses to regenerate its token.
/// Left out: the per-role assignee counts (`roleCount`, `getAssigneeCount`) and their limits; HCA sender equivalence.
abstract contract EnhancedAccessControl {
    uint256 public constant ROOT_RESOURCE = 0;
    /// The low bit of every nybble: every role and every admin role.
    uint256 internal constant ALL_ROLES = 0x1111111111111111111111111111111111111111111111111111111111111111;

    event EACRolesChanged(uint256 indexed resource, address indexed account, uint256 oldRoleBitmap, uint256 newRoleBitmap);

    error EACUnauthorizedAccountRoles(uint256 resource, uint256 roleBitmap, address account);
    error EACCannotGrantRoles(uint256 resource, uint256 roleBitmap, address account);
    error EACCannotRevokeRoles(uint256 resource, uint256 roleBitmap, address account);
    error EACRootResourceNotAllowed();
    error EACInvalidRoleBitmap(uint256 roleBitmap);
    error EACInvalidAccount();

    mapping(uint256 resource => mapping(address account => uint256 roleBitmap)) private _roleBitmaps;

    modifier onlyRootRoles(uint256 roleBitmap) {
        _checkRoles(ROOT_RESOURCE, roleBitmap, msg.sender);
        _;
    }

    function roles(uint256 resource, address account) public view virtual returns (uint256) {
        return _roleBitmaps[resource][account];
    }

    function hasRootRoles(uint256 roleBitmap, address account) public view returns (bool) {
        return _roleBitmaps[ROOT_RESOURCE][account] & roleBitmap == roleBitmap;
    }

    /// Root roles count on every resource.
    function hasRoles(uint256 resource, uint256 roleBitmap, address account) public view virtual returns (bool) {
        return (_roleBitmaps[ROOT_RESOURCE][account] | _roleBitmaps[resource][account]) & roleBitmap == roleBitmap;
    }

    function grantRoles(uint256 resource, uint256 roleBitmap, address account) public virtual returns (bool) {
        if (resource == ROOT_RESOURCE) revert EACRootResourceNotAllowed();
        return _grantChecked(resource, roleBitmap, account);
    }

    function grantRootRoles(uint256 roleBitmap, address account) public virtual returns (bool) {
        return _grantChecked(ROOT_RESOURCE, roleBitmap, account);
    }

    function revokeRoles(uint256 resource, uint256 roleBitmap, address account) public virtual returns (bool) {
        if (resource == ROOT_RESOURCE) revert EACRootResourceNotAllowed();
        return _revokeChecked(resource, roleBitmap, account);
    }

    function revokeRootRoles(uint256 roleBitmap, address account) public virtual returns (bool) {
        return _revokeChecked(ROOT_RESOURCE, roleBitmap, account);
    }

    function supportsInterface(bytes4 interfaceId) public view virtual returns (bool) {
        return interfaceId == 0x01ffc9a7; // ERC-165
    }

    function _grantChecked(uint256 resource, uint256 roleBitmap, address account) private returns (bool) {
        if (roleBitmap & ~_settableRoles(resource, msg.sender) != 0) {
            revert EACCannotGrantRoles(resource, roleBitmap, msg.sender);
        }
        return _grantRoles(resource, roleBitmap, account, true);
    }

    function _revokeChecked(uint256 resource, uint256 roleBitmap, address account) private returns (bool) {
        if (roleBitmap & ~_revokableRoles(resource, msg.sender) != 0) {
            revert EACCannotRevokeRoles(resource, roleBitmap, msg.sender);
        }
        return _revokeRoles(resource, roleBitmap, account, true);
    }

    /// What `account` may grant on `resource`: each role whose admin bit it holds there or at the root, with that bit.
    function _settableRoles(uint256 resource, address account) internal view virtual returns (uint256) {
        return _adminOf(resource, account);
    }

    function _revokableRoles(uint256 resource, address account) internal view virtual returns (uint256) {
        return _adminOf(resource, account);
    }

    function _adminOf(uint256 resource, address account) private view returns (uint256) {
        uint256 admin = (_roleBitmaps[resource][account] | _roleBitmaps[ROOT_RESOURCE][account]) >> 128;
        return (admin << 128) | admin;
    }

    function _checkRoles(uint256 resource, uint256 roleBitmap, address account) internal view virtual {
        if (!hasRoles(resource, roleBitmap, account)) revert EACUnauthorizedAccountRoles(resource, roleBitmap, account);
    }

    /// Adds roles; emits and calls the hook only when something changed.
    function _grantRoles(uint256 resource, uint256 roleBitmap, address account, bool withHook) internal returns (bool) {
        if (roleBitmap == 0) return false;
        if (roleBitmap & ~ALL_ROLES != 0) revert EACInvalidRoleBitmap(roleBitmap);
        if (account == address(0)) revert EACInvalidAccount();
        uint256 before = _roleBitmaps[resource][account];
        uint256 next = before | roleBitmap;
        if (next == before) return false;
        _roleBitmaps[resource][account] = next;
        emit EACRolesChanged(resource, account, before, next);
        if (withHook) _onRolesChanged(resource);
        return true;
    }

    function _revokeRoles(uint256 resource, uint256 roleBitmap, address account, bool withHook) internal returns (bool) {
        if (roleBitmap & ~ALL_ROLES != 0) revert EACInvalidRoleBitmap(roleBitmap);
        uint256 before = _roleBitmaps[resource][account];
        uint256 next = before & ~roleBitmap;
        if (next == before) return false;
        _roleBitmaps[resource][account] = next;
        emit EACRolesChanged(resource, account, before, next);
        if (withHook) _onRolesChanged(resource);
        return true;
    }

    /// Moves every role `from` holds on `resource` to `to` (a token transfer carries its roles).
    function _transferRoles(uint256 resource, address from, address to) internal {
        uint256 held = _roleBitmaps[resource][from];
        if (held == 0) return;
        _revokeRoles(resource, held, from, false);
        _grantRoles(resource, held, to, false);
    }

    /// Called after a grant or revocation made through the public functions.
    function _onRolesChanged(uint256 resource) internal virtual {}
}
