// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC1155Receiver} from "./Interfaces.sol";

/// Stands for contracts-v2's ERC1155Singleton: an ERC-1155 in which every id has at most one unit and so one holder,
/// readable with `ownerOf`. Kept: the standard events (`TransferSingle` for one id, `TransferBatch` for several),
/// operator approval, the receiver callbacks on transfers and mints to contracts, and an `_update` hook a registry
/// extends to move roles with a token. Left out: metadata URIs.
abstract contract ERC1155Singleton {
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);

    error ERC1155InsufficientBalance(address sender, uint256 balance, uint256 needed, uint256 tokenId);
    error ERC1155InvalidReceiver(address receiver);
    error ERC1155MissingApprovalForAll(address operator, address owner);
    error ERC1155InvalidArrayLength(uint256 idsLength, uint256 valuesLength);

    mapping(uint256 id => address holder) private _holders;
    mapping(address account => mapping(address operator => bool)) public isApprovedForAll;

    function ownerOf(uint256 id) public view virtual returns (address) {
        return _holders[id];
    }

    function balanceOf(address account, uint256 id) public view returns (uint256) {
        return ownerOf(id) == account && account != address(0) ? 1 : 0;
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata data) external {
        _checkOperator(from);
        if (to == address(0)) revert ERC1155InvalidReceiver(to);
        _move(from, to, _one(id), _one(value), data);
    }

    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external {
        _checkOperator(from);
        if (to == address(0)) revert ERC1155InvalidReceiver(to);
        _move(from, to, ids, values, data);
    }

    function supportsInterface(bytes4 interfaceId) public view virtual returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0xd9b67a26; // ERC-165, ERC-1155
    }

    /// The raw holder, whatever a subclass's `ownerOf` makes of expiry.
    function _holderOf(uint256 id) internal view returns (address) {
        return _holders[id];
    }

    function _mint(address to, uint256 id) internal {
        if (to == address(0)) revert ERC1155InvalidReceiver(to);
        _move(address(0), to, _one(id), _one(1), "");
    }

    function _burn(address from, uint256 id) internal {
        _move(from, address(0), _one(id), _one(1), "");
    }

    /// Moves each id with a value of 1 from `from` to `to`, then emits; a subclass extends it (and calls super first).
    function _update(address from, address to, uint256[] memory ids, uint256[] memory values) internal virtual {
        if (ids.length != values.length) revert ERC1155InvalidArrayLength(ids.length, values.length);
        for (uint256 i; i < ids.length; ++i) {
            if (values[i] == 0) continue;
            if (values[i] > 1 || _holders[ids[i]] != from) {
                revert ERC1155InsufficientBalance(from, _holders[ids[i]] == from ? 1 : 0, values[i], ids[i]);
            }
            _holders[ids[i]] = to;
        }
        if (ids.length == 1) emit TransferSingle(msg.sender, from, to, ids[0], values[0]);
        else emit TransferBatch(msg.sender, from, to, ids, values);
    }

    function _move(address from, address to, uint256[] memory ids, uint256[] memory values, bytes memory data) private {
        _update(from, to, ids, values);
        if (to.code.length == 0) return;
        bytes4 answer = ids.length == 1
            ? IERC1155Receiver(to).onERC1155Received(msg.sender, from, ids[0], values[0], data)
            : IERC1155Receiver(to).onERC1155BatchReceived(msg.sender, from, ids, values, data);
        bytes4 expected = ids.length == 1
            ? IERC1155Receiver.onERC1155Received.selector
            : IERC1155Receiver.onERC1155BatchReceived.selector;
        if (answer != expected) revert ERC1155InvalidReceiver(to);
    }

    function _checkOperator(address from) private view {
        if (from != msg.sender && !isApprovedForAll[from][msg.sender]) revert ERC1155MissingApprovalForAll(msg.sender, from);
    }

    function _one(uint256 x) private pure returns (uint256[] memory a) {
        a = new uint256[](1);
        a[0] = x;
    }
}
